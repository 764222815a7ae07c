//! Long renders in slices: a list of many items shows some at once and the rest a slice per
//! animation frame, so no single task of the page's thread renders (and lays out) them all. At
//! 100,000 partitions × 500 consumers the page's first render was one task of 300 ms (the consumers
//! editor's 200 rows, some 5,600 elements) and the first answer's another (the panels); issue 9 asks
//! for no block over 50 ms.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
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
}

/// How many of `total` items to render: `first` when they first appear, then `step` more at each
/// animation frame until all are. Once all are shown, a list that grows by up to `step` shows the
/// new ones at once; one that grows by more reveals them a slice per frame again.
#[hook]
pub fn use_reveal(total: usize, first: usize, step: usize) -> usize {
    let state = use_mut_ref(Revealed::default);
    let redraw = use_force_update();
    let shown = {
        let mut revealed = state.borrow_mut();
        if revealed.complete && total > revealed.shown.saturating_add(step) {
            revealed.complete = false;
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
        use_effect(move || next_slice(&state, total, step, redraw));
    }
    shown
}

/// After a render: asks for the next slice at the next frame if some items are still hidden.
fn next_slice(state: &Rc<RefCell<Revealed>>, total: usize, step: usize, redraw: UseForceUpdateHandle) {
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
        revealed.shown = revealed.shown.saturating_add(step.max(1)).min(total);
        drop(revealed);
        redraw.force_update();
    }));
}
