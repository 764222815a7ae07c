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
    // The rehearsal's first render, queued first, runs before the workers start (the next task):
    // beside their start (their threads, scripts and wasm) its 650-odd first compiles took two to
    // five times their CPU in wall clock, the opening's longest task at 100,000 partitions.
    let rehearsal = rehearse();
    Timeout::new(0, move || open(fragment, rehearsal)).forget();
}

/// Starts the compute workers and asks the lead for the opening; the app starts with its answer.
fn open(fragment: String, rehearsal: Rehearsal) {
    let Some(worker) = browser::ComputeWorker::start() else {
        return start_after(&rehearsal, app::Opened { worker: None, opened: None });
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
        let opened = app::Opened { worker: Some(worker), opened: Some(std::rc::Rc::new(opened)) };
        start_after(&rehearsal, opened);
    });
}

/// Starts the app once the rehearsal is over. A rehearsal still under way is taken down in this
/// task and the app starts in the next: taking an app down runs code of its own for the first
/// time (some 160 first compiles).
fn start_after(rehearsal: &Rehearsal, opened: app::Opened) {
    if end(rehearsal) {
        Timeout::new(0, move || start(opened)).forget();
    } else {
        start(opened);
    }
}

/// The app's opening, rehearsed while the lead worker reads what the tab opens on (the page's
/// thread is idle in that wait): the app itself, with no worker, on a group of one topic and one
/// consumer ([`rehearsed_group`]; it writes nothing: the link and the saved work are the workers'
/// to write), rendered into an element off the page from the next task on, its parts a frame each
/// as the page reveals them, and dropped once they are in ([`REHEARSED_FRAMES`]) or when the
/// opening comes. The first run of the page's wasm
/// functions is where V8 compiles each of them: the real first render did some 680 such compiles,
/// 18–23 ms of its 28–35 ms of the page thread's CPU at 1,000 partitions, and the editing column's
/// and the Configuration's frames another 450–500 (issue 9: no task over 50 ms). They run warm.
///
/// Its first render runs in a task of its own, queued now: run here, it made the page's start (its
/// wasm compiled and instantiated, the workers started, then this) one task of 41–54 ms of the
/// page thread's CPU, the opening's longest at every size where nothing of the page was cached.
fn rehearse() -> Rehearsal {
    let rehearsal = Rc::new(RefCell::new(Rehearsed::Coming));
    let later = Rc::clone(&rehearsal);
    Timeout::new(0, move || {
        // The opening came first: nothing left to rehearse.
        if !matches!(*later.borrow(), Rehearsed::Coming) {
            return;
        }
        let Ok(off_page) = gloo::utils::document().create_element("div") else { return };
        let mut opened = ui::saved::opening(None);
        opened.opening.scenario = rehearsed_group();
        opened.problem = None;
        let opened = app::Opened { worker: None, opened: Some(Rc::new(Ok(opened))) };
        // Off the page, its renders may come in several tasks: its first render (some 700 first
        // compiles, 24–36 ms of the page thread's CPU) took 50–85 ms of wall clock in one task
        // beside the browser's start, as did some of its frames (issue 9: no task over 50 ms).
        yew::scheduler::yield_within_renders(true);
        *later.borrow_mut() =
            Rehearsed::Running(yew::Renderer::<app::App>::with_root_and_props(off_page, opened).render());
        end_after_frames(later, REHEARSED_FRAMES);
    })
    .forget();
    rehearsal
}

/// The frames the rehearsal lives (unless the opening comes first): its parts come a frame each
/// (the topics editor, the consumers editor, the protocol, weights and events, the
/// Configuration), and it is dropped in a frame of its own after them, so that the code that
/// takes an app down is compiled in the wait too, not in the task of the real first render.
const REHEARSED_FRAMES: u32 = 6;

/// Drops the rehearsal at the `frames`th animation frame from now.
fn end_after_frames(rehearsal: Rehearsal, frames: u32) {
    let frame = Closure::once_into_js(move || match frames {
        0 | 1 => {
            end(&rehearsal);
        }
        _ => end_after_frames(rehearsal, frames - 1),
    });
    let _ = gloo::utils::window().request_animation_frame(frame.unchecked_ref());
}

/// The group the opening is rehearsed on: one topic and one consumer that reads it, so that the
/// editors' rows run too.
fn rehearsed_group() -> scenario::Scenario {
    scenario::Scenario {
        topics: vec![scenario::TopicSpec::new("rehearsal", 1)],
        consumers: vec![scenario::ConsumerSpec::new("rehearsal", &["rehearsal"])],
        ..Default::default()
    }
}

/// Where the rehearsed render is.
enum Rehearsed {
    /// Queued: its task has not run yet.
    Coming,
    /// Rendered off the page, until its last frame or the opening.
    Running(yew::AppHandle<app::App>),
    /// Dropped, or never run.
    Over,
}

type Rehearsal = Rc<RefCell<Rehearsed>>;

/// Ends the rehearsal: whether it was still rendered (and is now taken down).
fn end(rehearsal: &Rehearsal) -> bool {
    // The page's own renders come whole, each in one task.
    yew::scheduler::yield_within_renders(false);
    let was = std::mem::replace(&mut *rehearsal.borrow_mut(), Rehearsed::Over);
    match was {
        Rehearsed::Running(app) => {
            app.destroy();
            true
        }
        Rehearsed::Coming | Rehearsed::Over => false,
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
