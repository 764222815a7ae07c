//! The panels laid out ahead (issue 9: a typed edit painted within a frame). While a count is
//! typed, its draft's answer comes before the key that applies it (`state::Action::Draft`). Once
//! it waited `state::AHEAD_WAIT_MS` (`state::Action::LayOutAhead`), the results region renders it
//! into a second copy of the panels, hidden under the first, so that its render, style, layout and
//! paint are done while the person types; the key that applies the draft paints that very answer,
//! and the region swaps the copies: two layers' opacity and stacking change, nothing is laid out or
//! painted again (`www/style.css`'s `.panels-stack`), and the copy swapped out is dropped once that
//! frame is painted.
//!
//! A swap shows the person a copy rendered afresh: only when the copy on screen looks as a fresh
//! one does (nothing scrolled, searched, opened or explained in it) and the hidden one is whole.
//! Each copy counts its components that look otherwise ([`ViewChanges`], [`use_view_change`]);
//! otherwise the key renders the answer on screen as any edit does. [`Copies`] decides, render by
//! render, which copy is on screen and what the other shows.

use std::cell::Cell;
use std::rc::Rc;

use playground::computed::Computed;
use yew::prelude::*;

use crate::browser;
use crate::ui::panel::MemberSource;

/// How many of one copy's components show something a copy rendered afresh from the same answer
/// would not (a list scrolled, a search typed, a member opened, a walkthrough open) or not yet
/// (rows still to come). Handed down the copy's panels as a prop; compared by identity.
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

/// Counts this component in its copy's [`ViewChanges`] (`None`: not in a copy) while `changed`, as
/// of its last render, until it is unmounted. The copy is the one it first rendered in: the copies
/// are keyed by slot, so a component never moves from one to the other.
#[hook]
pub fn use_view_change(changes: Option<&ViewChanges>, changed: bool) {
    let counted = use_mut_ref(|| Counted { changes: changes.cloned(), on: false });
    counted.borrow_mut().set(changed);
}

/// One component's part of its copy's [`ViewChanges`].
struct Counted {
    changes: Option<ViewChanges>,
    on: bool,
}

impl Counted {
    fn set(&mut self, on: bool) {
        if let Some(changes) = self.changes.as_ref().filter(|_| on != self.on) {
            let count = changes.0.get();
            changes.0.set(if on { count.saturating_add(1) } else { count.saturating_sub(1) });
        }
        self.on = on;
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.set(false);
    }
}

/// The results region's two copies of the panels: the one on screen, and the one laid out hidden
/// with the answer of the draft being typed, if any (`app.rs`'s `Results` renders them).
#[derive(Default)]
pub struct Copies {
    /// Which copy is on screen (0 or 1, also its key).
    front: usize,
    /// The answer it was last rendered with, and the source of its opened members' partitions.
    front_shown: Option<(Rc<Computed>, MemberSource)>,
    /// What the other copy shows, if it is rendered.
    other: Option<Other>,
    /// Whether the copy on screen was swapped in and is still `inert`: a swap changes opacities
    /// alone, and the copies' `inert`, whose change restyles every element under it, and the
    /// copy swapped out are seen to once the swap's frame is painted.
    settling: bool,
    /// Whether the other copy (swapped out, or laid out with a draft no longer typed) is dropped
    /// once this render's frame is painted: not in the task of the key that applies an edit.
    dropping: bool,
    changes: [ViewChanges; 2],
    nodes: [NodeRef; 2],
}

/// The copy not on screen.
enum Other {
    /// Laid out hidden with the draft's answer.
    Ahead(Rc<Computed>),
    /// The copy just swapped out, with its answer and its members' source (the page's is new with
    /// each answer: kept, the copy renders nothing more before it is dropped, once the swap is
    /// painted).
    Retired(Rc<Computed>, MemberSource),
}

impl Copies {
    /// Puts the hidden copy on screen if it shows `shown` (the draft it was rendered with was
    /// applied) and the swap shows nothing a person would miss: both copies as fresh ones, whole,
    /// and the focus outside the one on screen. Then lays `ahead` out hidden (`None`: nothing new
    /// to), unless the copy on screen is not as a fresh one; a copy laid out before stays while a
    /// draft is typed (the next answer renders into it), and is dropped later once none is.
    /// Whether something is left to [`settle`](Self::settle) once this render's frame is painted.
    pub fn follow(
        &mut self,
        (shown, source): (&Rc<Computed>, &MemberSource),
        ahead: Option<Rc<Computed>>,
        drafting: bool,
    ) -> bool {
        let back = 1 - self.front;
        let swap = matches!(&self.other, Some(Other::Ahead(b)) if Rc::ptr_eq(b, shown))
            && self.changes[self.front].none()
            && self.changes[back].none()
            && !self.nodes[self.front].get().is_some_and(|front| browser::focus_within(&front));
        if swap {
            self.front = back;
            self.settling = true;
            self.other = self.front_shown.take().map(|(shown, source)| Other::Retired(shown, source));
        }
        self.front_shown = Some((Rc::clone(shown), source.clone()));
        match ahead.filter(|_| self.changes[self.front].none()) {
            Some(ahead) => {
                self.other = Some(Other::Ahead(ahead));
                self.dropping = false;
            }
            None => self.dropping = self.other.is_some() && !drafting,
        }
        self.settling || self.dropping
    }

    /// The frame of the render that swapped or dropped a copy is painted: the copy on screen is
    /// no longer `inert`, the other is dropped if it was to be. Whether anything changed.
    pub fn settle(&mut self) -> bool {
        let changed = self.settling || self.dropping;
        self.settling = false;
        if std::mem::take(&mut self.dropping) {
            self.other = None;
        }
        changed
    }
}

/// One copy to render, keyed by its slot.
pub struct PanelsCopy<'a> {
    pub key: usize,
    /// The answer it shows.
    pub shown: &'a Rc<Computed>,
    /// Where its opened members' partitions come from.
    pub source: MemberSource,
    /// `ahead` (hidden, with the draft's answer), `retired` (hidden, swapped out) or none (on
    /// screen).
    pub role: Option<&'static str>,
    /// `inert` and `aria-hidden`: out of reach (the copy laid out ahead, and a copy just swapped
    /// in until its frame is painted).
    pub inert: bool,
    pub changes: ViewChanges,
    pub node: NodeRef,
}

impl Copies {
    /// The copy in slot `key` (0 or 1, kept in the slots' order so that a swap moves no element),
    /// if it is rendered: the one on screen showing `shown`, it and the one ahead with the page's
    /// `source`.
    pub fn slot<'a>(&'a self, key: usize, shown: &'a Rc<Computed>, source: &'a MemberSource) -> Option<PanelsCopy<'a>> {
        let (shown, source, role, inert) = match &self.other {
            _ if key == self.front => (shown, source, None, self.settling),
            Some(Other::Ahead(ahead)) => (ahead, source, Some("ahead"), true),
            Some(Other::Retired(retired, own)) => (retired, own, Some("retired"), false),
            None => return None,
        };
        let (changes, node, source) = (self.changes[key].clone(), self.nodes[key].clone(), source.clone());
        Some(PanelsCopy { key, shown, source, role, inert, changes, node })
    }
}
