//! The Kafka Assignor Playground: a client-side Yew app, built and served by Trunk (`.ci/serve`).
//!
//! `state` holds the one model and its reducer, `computed` what follows from it, `saved` the work
//! kept in this browser (plain logic), `ui` the components that render it, `browser` the URL,
//! storage and clipboard; `app` ties them together.

mod app;
mod browser;
mod computed;
mod saved;
mod state;
mod ui;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
