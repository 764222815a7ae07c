//! The Kafka Assignor Playground: a client-side Yew app, built and served by Trunk (`.ci/serve`).

mod app;
mod demo;
mod panel;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
