//! The Kafka Assignor Playground: a client-side Yew app, built and served by Trunk (`.ci/serve`).
//!
//! `state` holds the one model and its reducer, `computed` (shared with the compute worker,
//! `bin/worker.rs`, through `work`'s messages) what follows from it, `saved` the work kept in this
//! browser (plain logic), `ui` the components that render it, `browser` the worker, URL, storage
//! and clipboard; `app` ties them together.

mod app;
mod browser;
mod saved;
mod state;
mod ui;

use playground::computed;

fn main() {
    let fragment = browser::fragment();
    if fragment.is_empty() {
        start(app::Opened::default());
        return;
    }
    // A link is inflated by the browser (`browser::read_link`), a few microtasks away: the page
    // says what it is doing meanwhile, and the app's first render replaces it.
    if let Some(root) = gloo::utils::document().get_element_by_id("page") {
        root.set_text_content(Some("Opening the link…"));
    }
    yew::platform::spawn_local(async move {
        let link = browser::read_link(&fragment).await;
        start(app::Opened { link: Some(std::rc::Rc::new(link)) });
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
