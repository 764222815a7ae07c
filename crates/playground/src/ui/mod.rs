//! The page's components. Leaf components read the DOM and dispatch domain edits; none holds
//! assignment logic: they render what `computed` holds.

pub mod ahead;
pub mod config;
pub mod consumer_protocol;
pub mod dialog;
pub mod editors;
pub mod explain;
pub mod fields;
pub mod find;
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

use playground::work::OpenedPreset;
use yew::UseReducerHandle;

use crate::state::State;

/// The app model, shared through a context.
pub type Store = UseReducerHandle<State>;

/// The presets, as the worker read them at the opening (`work::Opened::presets`): the page holds
/// no reader of their files (issue 9). Shared through a context; they never change.
pub type Presets = Same<Vec<OpenedPreset>>;

/// A value behind an `Rc`, compared by identity, as a component's prop: the worker's answer is a
/// new `Computed` each time and the scenario a new `Scenario` each edit, while one that did not
/// change is the same `Rc`; so a component given it re-renders only when it changed (an edit's
/// busy state does not re-render the results' sections). The editors' lists compare the part of
/// the scenario they show instead (`editors.rs`).
#[derive(Clone)]
pub struct Same<T>(pub Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// `value` (at least 0) with `decimals` (0 or 1) digits after the point, as `format!("{value:.0}")`
/// and `format!("{value:.1}")` write it (ties to even; with one digit, a value within a rounding
/// error of a tie may round the other way). The page's only float formatting: Rust's (the `f64`
/// `Display` with its exact decimal expansion, 13 KB of code) is linked nowhere on the page (issue 9).
pub fn fixed(value: f64, decimals: u8) -> String {
    let units = if decimals == 0 { value } else { value * 10.0 }.round_ties_even().max(0.0) as u64;
    if decimals == 0 {
        units.to_string()
    } else {
        format!("{}.{}", units / 10, units % 10)
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

#[cfg(test)]
mod tests {
    use super::fixed;

    #[test]
    fn fixed_writes_what_rusts_formatting_writes() {
        // Every hundredth from 0 to 1,000, the percentages and loads the page writes; ties at zero
        // digits round to even, as `{:.0}` does.
        for hundredths in 0..100_000u32 {
            let value = f64::from(hundredths) / 100.0;
            assert_eq!(fixed(value, 0), format!("{value:.0}"), "{value}");
            if hundredths % 10 != 5 {
                assert_eq!(fixed(value, 1), format!("{value:.1}"), "{value}");
            }
        }
        for value in [0.5, 1.5, 2.5, 12.5, 99.5, 1e15 + 0.5, 3.25] {
            assert_eq!(fixed(value, 0), format!("{value:.0}"), "{value}");
        }
        assert_eq!(
            (fixed(66.666_666, 1), fixed(100.0, 1), fixed(0.04, 1)),
            ("66.7".into(), "100.0".into(), "0.0".into())
        );
    }
}
