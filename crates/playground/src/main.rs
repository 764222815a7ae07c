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
    // Into its own element: a render into <body> would first clear index.html's sample of the
    // results' type faces (see there), which is to stay laid out beside the page.
    match gloo::utils::document().get_element_by_id("page") {
        Some(root) => yew::Renderer::<app::App>::with_root(root).render(),
        None => yew::Renderer::<app::App>::new().render(),
    };
}
