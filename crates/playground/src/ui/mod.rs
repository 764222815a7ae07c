//! The page's components. Leaf components read the DOM and dispatch domain edits; none holds
//! assignment logic: they render what `computed` holds.

pub mod config;
pub mod editors;
pub mod explain;
pub mod fields;
pub mod import;
pub mod panel;
pub mod saved;
pub mod share;
pub mod weights;

use yew::UseReducerHandle;

use crate::state::State;

/// The app model, shared through a context.
pub type Store = UseReducerHandle<State>;

/// The colour class of the topic at `index`: eight Okabe–Ito colours, safe for colour-blind eyes.
pub fn topic_class(index: usize) -> String {
    format!("topic-{}", index % 8)
}
