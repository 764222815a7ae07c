//! Long renders in slices: a list of many items shows some at once and the rest a slice per
//! animation frame, so no single task of the page's thread renders (and lays out) them all. At
//! 100,000 partitions × 500 consumers the page's first render was one task of 300 ms (the consumers
//! editor's 200 rows, some 5,600 elements) and the first answer's another (the panels); issue 9 asks
//! for no block over 50 ms.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::js_sys::Array;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};
use yew::prelude::*;

/// How far a list is revealed.
#[derive(Default)]
struct Revealed {
    /// How many items are rendered.
    shown: usize,
    /// Whether every item was rendered at the last render: a list that grows by no more than a
    /// slice then shows the new items at once (a consumer added, an answer's panels already there).
    complete: bool,
    /// The frame that reveals the next slice (kept until the next is asked for: a handle dropped
    /// cancels its frame).
    frame: Option<AnimationFrame>,
    /// Whether that frame is still to come.
    waiting: bool,
    /// Slices revealed since the list last appeared or grew (each a little larger, see
    /// [`use_reveal`]).
    slices: usize,
}

/// What a list fully shown does when it grows (by no more than a slice, but for [`Growth::Whole`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// Shows the new items at once (a consumer added, an answer's panels already there).
    AtOnce,
    /// Reveals them from the next frame, as any others (the page's parts at the opening: a part
    /// that waited for another's last slice comes in the frame after it, not in the same one).
    Sliced,
    /// Shows them at once however many: a list sliced at its first render only (a panel's rows at
    /// the opening; an edit's answer paints whole in one frame).
    Whole,
}

/// How many of `total` items to render: `first` when they first appear, then a slice more at each
/// animation frame until all are, the slices growing by `first` a frame up to `step` (`first`,
/// `2 × first`, … `step`: the first frames run the items' code for the first time, cold, at two to
/// three times the cost of the later ones). Once all are shown, a list that grows by up to `step`
/// shows the new ones as `growth` says; one that grows by more reveals them a slice per frame again
/// (unless `growth` is [`Growth::Whole`]).
#[hook]
pub fn use_reveal(total: usize, first: usize, step: usize, growth: Growth) -> usize {
    let state = use_mut_ref(Revealed::default);
    let redraw = use_force_update();
    let shown = {
        let mut revealed = state.borrow_mut();
        let sliced = growth == Growth::Sliced && total > revealed.shown && revealed.shown > 0;
        let again = sliced || (growth != Growth::Whole && total > revealed.shown.saturating_add(step));
        if revealed.complete && again {
            revealed.complete = false;
            revealed.slices = 0;
        } else if revealed.complete || total <= revealed.shown {
            revealed.shown = total;
        } else if revealed.shown == 0 {
            revealed.shown = first.min(total);
        }
        revealed.complete = revealed.shown >= total;
        revealed.shown
    };
    {
        let state = Rc::clone(&state);
        use_effect(move || next_slice(&state, total, (first, step), redraw));
    }
    shown
}

/// The size of slice `slices + 1` after the first items: growing by `first` a slice up to `step`
/// (at least one item).
fn slice_size(slices: usize, (first, step): (usize, usize)) -> usize {
    first.saturating_mul(slices.saturating_add(1)).clamp(1, step.max(1))
}

/// After a render: asks for the next slice at the next frame if some items are still hidden.
fn next_slice(state: &Rc<RefCell<Revealed>>, total: usize, sizes: (usize, usize), redraw: UseForceUpdateHandle) {
    let mut revealed = state.borrow_mut();
    if revealed.complete {
        revealed.frame = None;
        revealed.waiting = false;
        return;
    }
    if revealed.waiting {
        return;
    }
    let later = Rc::clone(state);
    revealed.waiting = true;
    revealed.frame = Some(request_animation_frame(move |_| {
        let mut revealed = later.borrow_mut();
        revealed.waiting = false;
        revealed.shown = revealed.shown.saturating_add(slice_size(revealed.slices, sizes)).min(total);
        revealed.slices = revealed.slices.saturating_add(1);
        drop(revealed);
        redraw.force_update();
    }));
}

/// How far below the viewport a list's end may be and still have its next rows mounted: half a
/// viewport, so that rows are in before a person scrolling (or tabbing) reaches them, and a list
/// whose first rows already reach that far mounts no more at the opening.
const REACH_MARGIN: &str = "0px 0px 50% 0px";

/// How many of a long list's items the person has come near: `first`, then `step` more each time
/// the `sentinel` (an element just after the last item mounted) is within [`REACH_MARGIN`] of the
/// viewport. It only grows, so that items once mounted stay mounted (their focus, their drafts).
/// The consumers editor's rows each carry five form fields, and Chromium's autofill parses the
/// page's fields again each time some are added: mounted all at the opening, 50 rows were its
/// longest tasks ("The opening", stop 21).
#[hook]
pub fn use_reach(first: usize, step: usize, sentinel: &NodeRef) -> usize {
    let state = use_mut_ref(|| Reach { items: first, watcher: None });
    let redraw = use_force_update();
    let items = state.borrow().items;
    {
        let (state, sentinel) = (Rc::clone(&state), sentinel.clone());
        use_effect(move || watch(&state, &sentinel, step, redraw));
    }
    items
}

/// A list's reach ([`use_reach`]) and the observer of its sentinel.
struct Reach {
    items: usize,
    watcher: Option<Watcher>,
}

/// An `IntersectionObserver` and the callback it calls (which must live as long as it does).
struct Watcher {
    observer: IntersectionObserver,
    _near: Closure<dyn Fn(Array)>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// After a render: observes the sentinel afresh (a new observation reports at once whether it is
/// near, so a sentinel still near after the new items were laid out asks for more), or stops
/// observing when the list rendered none (every item mounted).
fn watch(state: &Rc<RefCell<Reach>>, sentinel: &NodeRef, step: usize, redraw: UseForceUpdateHandle) {
    let mut reach = state.borrow_mut();
    let Some(target) = sentinel.cast::<Element>() else {
        reach.watcher = None;
        return;
    };
    if reach.watcher.is_none() {
        reach.watcher = watcher(Rc::downgrade(state), step, redraw);
    }
    if let Some(watcher) = &reach.watcher {
        watcher.observer.unobserve(&target);
        watcher.observer.observe(&target);
    }
}

/// An observer that adds `step` items to the reach when its target comes near the viewport. It
/// holds the reach weakly: the reach holds it.
fn watcher(state: Weak<RefCell<Reach>>, step: usize, redraw: UseForceUpdateHandle) -> Option<Watcher> {
    let near = Closure::<dyn Fn(Array)>::new(move |entries: Array| {
        let last = entries.iter().filter_map(|entry| entry.dyn_into::<IntersectionObserverEntry>().ok()).next_back();
        if !last.is_some_and(|entry| entry.is_intersecting()) {
            return;
        }
        if let Some(state) = state.upgrade() {
            let mut reach = state.borrow_mut();
            reach.items = reach.items.saturating_add(step);
            drop(reach);
            redraw.force_update();
        }
    });
    let options = IntersectionObserverInit::new();
    options.set_root_margin(REACH_MARGIN);
    let observer = IntersectionObserver::new_with_options(near.as_ref().unchecked_ref(), &options).ok()?;
    Some(Watcher { observer, _near: near })
}

#[cfg(test)]
mod tests {
    use super::slice_size;

    #[test]
    fn slices_grow_by_the_first_count_up_to_the_step() {
        let sizes: Vec<usize> = (0..5).map(|slices| slice_size(slices, (4, 10))).collect();
        assert_eq!(sizes, [4, 8, 10, 10, 10]);
        // A list revealed from nothing, one item a frame (the page's parts).
        assert_eq!((0..3).map(|slices| slice_size(slices, (0, 1))).collect::<Vec<_>>(), [1, 1, 1]);
        assert_eq!(slice_size(0, (5, 0)), 1);
        // The topics editor's slices after its first 5 rows: 5, then 10 a frame.
        assert_eq!((0..3).map(|slices| slice_size(slices, (5, 10))).collect::<Vec<_>>(), [5, 10, 10]);
    }
}
