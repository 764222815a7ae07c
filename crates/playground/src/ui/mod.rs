//! The page's components. Leaf components read the DOM and dispatch domain edits; none holds
//! assignment logic: they render what `computed` holds.

pub mod config;
pub mod consumer_protocol;
pub mod dialog;
pub mod editors;
pub mod explain;
pub mod fields;
pub mod import;
pub mod intro;
pub mod keys;
pub mod lanes;
pub mod members;
pub mod panel;
pub mod reveal;
pub mod saved;
pub mod share;
pub mod weights;

use std::rc::Rc;

use yew::UseReducerHandle;

use crate::state::State;

/// The app model, shared through a context.
pub type Store = UseReducerHandle<State>;

/// A value behind an `Rc`, compared by identity, as a component's prop: the worker's answer is a
/// new `Computed` each time and the scenario a new `Scenario` each edit, while one that did not
/// change is the same `Rc`; so a component given it re-renders only when it changed (an answer
/// does not re-render the editors, an edit's busy state does not re-render the panels).
#[derive(Clone)]
pub struct Same<T>(pub Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The colour class of the topic at `index`: eight Okabe–Ito colours, safe for colour-blind eyes.
pub fn topic_class(index: usize) -> String {
    format!("topic-{}", index % 8)
}

/// Counts a render of `component`, in debug builds only, on the page's root element
/// (`data-renders-<component>`): how a browser test checks that an edit re-renders only what it
/// changed. Release builds count nothing.
pub fn rendered(component: &str) {
    #[cfg(all(debug_assertions, target_arch = "wasm32"))]
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let attribute = format!("data-renders-{}", component.to_lowercase());
        let count = root.get_attribute(&attribute).and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        let _ = root.set_attribute(&attribute, &(count + 1).to_string());
    }
    #[cfg(not(all(debug_assertions, target_arch = "wasm32")))]
    let _ = component;
}
