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
    yew::Renderer::<app::App>::new().render();
}
