//! The panels laid out ahead (issue 9: a typed edit painted within a frame). While a count is
//! typed, its draft's answer comes before the key that applies it (`state::Action::Draft`). The
//! results region renders that answer into a second copy of the panels, hidden over the first, so
//! that its render, style, layout and paint are done while the person types; the key that applies
//! the draft paints that very answer, and the region swaps the copies: one opacity changed, one
//! copy dropped, nothing laid out or painted again (`www/style.css`'s `.panels-stack`).
//!
//! A swap shows the person a copy rendered afresh: only when the copy on screen looks as a fresh
//! one does (nothing scrolled, searched, opened or explained in it) and the hidden one is whole.
//! Each copy counts its components that look otherwise ([`ViewChanges`], [`use_view_change`]);
//! otherwise the key renders the answer on screen as any edit does.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

/// How many of one copy's components show something a copy rendered afresh from the same answer
/// would not (a list scrolled, a search typed, a member opened, a walkthrough open) or not yet
/// (rows still to come). Shared through a context around each copy; compared by identity.
#[derive(Clone, Default)]
pub struct ViewChanges(Rc<Cell<usize>>);

impl PartialEq for ViewChanges {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl ViewChanges {
    /// Whether the copy looks as a fresh one, whole.
    pub fn none(&self) -> bool {
        self.0.get() == 0
    }
}

/// Counts this component in its copy's [`ViewChanges`] while `changed` (as of its last render).
#[hook]
pub fn use_view_change(changed: bool) {
    let changes = use_context::<ViewChanges>();
    use_effect_with(changed, move |&changed| {
        let counted = changes.filter(|_| changed);
        if let Some(changes) = &counted {
            changes.0.set(changes.0.get() + 1);
        }
        move || {
            if let Some(changes) = counted {
                changes.0.set(changes.0.get().saturating_sub(1));
            }
        }
    });
}
