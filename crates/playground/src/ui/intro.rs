//! The scenario's title and notes, and whether the group is still the one its preset's notes
//! describe.

use yew::prelude::*;

use crate::ui::{rendered, Presets, Store};

#[function_component]
pub fn Intro() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    rendered("Intro");
    let s = &store.scenario;
    // The group of the preset whose title the scenario carries, as the preset opens (once per title).
    let presets = use_context::<Presets>();
    let preset =
        use_memo(s.title.clone(), |title| presets?.0.iter().find(|p| p.title == *title).map(|p| p.scenario.clone()));
    if s.title.is_empty() && s.notes.is_empty() {
        return html! {};
    }
    let edited =
        preset.as_ref().as_ref().map(|original| original.topics != s.topics || original.consumers != s.consumers);
    let note = format!("Edited from the preset “{}”: the note describes the group as the preset has it.", s.title);
    html! {
        <section class="intro">
            <h2>{ s.title.clone() }</h2>
            // A preset's line is always there, empty until the group is edited: its text appears as
            // the field being left loses focus, and a layout shift then could swallow the click
            // that blurred it.
            if let Some(edited) = edited {
                <p class="edited" aria-live="polite" title={edited.then(|| note.clone())}>
                    if edited { { note } }
                </p>
            }
            <p>{ s.notes.clone() }</p>
        </section>
    }
}
