//! The Kafka Assignor Playground: a client-side Yew app, built and served by Trunk (`.ci/serve`).
//!
//! `state` holds the one model and its reducer, `computed` (shared with the compute worker,
//! `bin/worker.rs`, through `work`'s messages) what follows from it, `saved` the work kept in this
//! browser (plain logic, run in the worker), `ui` the components that render it, `browser` the
//! worker, URL, storage and clipboard; `app` ties them together.

mod app;
mod browser;
mod state;
mod ui;

use playground::computed;
use playground::work::{OpenRequest, Opened};

fn main() {
    // The tab opens on what the lead compute worker reads of its link, or of the saved work, or
    // the first preset (`work::OpenRequest`): the page links no reader of links or scenario files
    // (issue 9). The workers start with the page anyway; the page says what it does meanwhile,
    // and the app's first render replaces it.
    let fragment = browser::fragment();
    if let Some(root) = gloo::utils::document().get_element_by_id("page") {
        root.set_text_content(Some(if fragment.is_empty() { "Opening…" } else { "Opening the link…" }));
    }
    let Some(worker) = browser::ComputeWorker::start() else {
        return start(app::Opened { worker: None, opened: None });
    };
    let request = OpenRequest {
        link: (!fragment.is_empty()).then_some(fragment),
        // An embed reads and writes no storage.
        stored: if browser::is_embed() { Default::default() } else { browser::stored_site() },
        fresh_id: browser::fresh_id(),
        now: browser::now(),
    };
    let lead = worker.clone();
    lead.open(request, move |opened: Result<Opened, String>| {
        start(app::Opened { worker: Some(worker), opened: Some(std::rc::Rc::new(opened)) });
    });
}

fn start(opened: app::Opened) {
    // Into its own element: a render into <body> would first clear index.html's sample of the
    // results' type faces (see there), which is to stay laid out beside the page.
    match gloo::utils::document().get_element_by_id("page") {
        Some(root) => yew::Renderer::<app::App>::with_root_and_props(root, opened).render(),
        None => yew::Renderer::<app::App>::with_props(opened).render(),
    };
}
