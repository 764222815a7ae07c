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

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use playground::computed;
use playground::work::{OpenRequest, Opened};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

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
    let rehearsal = rehearse();
    let lead = worker.clone();
    lead.open(request, move |opened: Result<Opened, String>| {
        end(&rehearsal);
        start(app::Opened { worker: Some(worker), opened: Some(std::rc::Rc::new(opened)) });
    });
}

/// The app's first render, rehearsed while the lead worker reads what the tab opens on (the
/// page's thread is idle in that wait): the app itself, on the opening a browser without workers
/// gets (an empty group; it writes nothing), rendered into an element off the page and
/// dropped at the next animation frame, or sooner if the opening comes. That render is the first
/// run of most of the page's wasm, which V8 compiles a function at a time as each first runs: the
/// real first render did some 680 such compiles, 18–23 ms of its 28–35 ms of the page thread's CPU
/// at 1,000 partitions (issue 9: no task over 50 ms). The real one then runs warm.
///
/// It runs in a task of its own, queued now: run here, it made the page's start (its wasm
/// compiled and instantiated, the workers started, then this) one task of 41–54 ms of the page
/// thread's CPU, the opening's longest at every size where nothing of the page was cached.
fn rehearse() -> Rehearsal {
    let rehearsal = Rc::new(RefCell::new(Rehearsed::Coming));
    let later = Rc::clone(&rehearsal);
    Timeout::new(0, move || {
        // The opening came first: nothing left to rehearse.
        if !matches!(*later.borrow(), Rehearsed::Coming) {
            return;
        }
        let Ok(off_page) = gloo::utils::document().create_element("div") else { return };
        let app = yew::Renderer::<app::App>::with_root_and_props(off_page, app::Opened { worker: None, opened: None })
            .render();
        *later.borrow_mut() = Rehearsed::Running(app);
        let frame = Closure::once_into_js(move || end(&later));
        let _ = gloo::utils::window().request_animation_frame(frame.unchecked_ref());
    })
    .forget();
    rehearsal
}

/// Where the rehearsed render is.
enum Rehearsed {
    /// Queued: its task has not run yet.
    Coming,
    /// Rendered off the page, until the next animation frame or the opening.
    Running(yew::AppHandle<app::App>),
    /// Dropped, or never run.
    Over,
}

type Rehearsal = Rc<RefCell<Rehearsed>>;

fn end(rehearsal: &Rehearsal) {
    let was = std::mem::replace(&mut *rehearsal.borrow_mut(), Rehearsed::Over);
    if let Rehearsed::Running(app) = was {
        app.destroy();
    }
}

fn start(opened: app::Opened) {
    // Into its own element: a render into <body> would first clear index.html's sample of the
    // results' type faces (see there), which is to stay laid out beside the page.
    match gloo::utils::document().get_element_by_id("page") {
        Some(root) => yew::Renderer::<app::App>::with_root_and_props(root, opened).render(),
        None => yew::Renderer::<app::App>::with_props(opened).render(),
    };
}
