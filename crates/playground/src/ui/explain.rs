//! The walkthrough: a strategy's decisions for the current group, one step at a time, with the
//! partition and members of each step highlighted and the orders it walks shown, as the seed
//! article's figures do. The compute worker records the walk and sends the step on screen
//! (`work::WalkFrame`): the page runs none of the strategies.

use std::cell::Cell;
use std::rc::Rc;

use gloo::timers::callback::Interval;
use playground::work::{WalkFrame, WalkRequest};
use scenario::{Scenario, StrategyId};
use yew::prelude::*;

use crate::ui::Store;

/// Where a walkthrough's steps come from: the page asks for one step of the scenario on screen and
/// the answer comes through the callback, later (from the compute worker), or why there is none.
/// Compared by identity.
#[derive(Clone)]
pub struct WalkSource(pub Rc<dyn Fn(WalkRequest, Rc<Scenario>, StepAnswer)>);

/// Where a walkthrough's step goes, or why there is none.
pub type StepAnswer = Callback<Result<WalkFrame, String>>;

impl PartialEq for WalkSource {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub strategy: StrategyId,
}

#[function_component]
pub fn Explain(props: &ExplainProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let source = use_context::<WalkSource>();
    // The step wanted, and the one on screen (the last answered).
    let at = use_state(|| 0usize);
    let frame = use_state(|| None::<Result<WalkFrame, String>>);
    let playing = use_state(|| false);
    {
        // Ask for the step wanted of the scenario on screen; an answer that comes after the next
        // question is dropped.
        let (frame, scenario) = (frame.clone(), Rc::clone(&store.scenario));
        use_effect_with((store.version(), props.strategy, *at, source), move |(version, strategy, at, source)| {
            let asking = Rc::new(Cell::new(true));
            let request = WalkRequest { version: *version, strategy: *strategy, step: *at };
            let give = {
                let asking = Rc::clone(&asking);
                Callback::from(move |answer| {
                    if asking.get() {
                        frame.set(Some(answer));
                    }
                })
            };
            if let Some(source) = source {
                (source.0)(request, scenario, give);
            }
            move || asking.set(false)
        });
    }
    let shown = match &*frame {
        Some(Ok(shown)) => Some(shown),
        _ => None,
    };
    let (current, count) = shown.map_or((0, 0), |f| (f.step, f.count));
    {
        // Play: one step every 700 ms until the end.
        let (at, playing) = (at.clone(), playing.clone());
        use_effect_with((*playing, current, count), move |&(on, now, count)| {
            let interval = (on && now + 1 < count).then(|| {
                let next = now + 1;
                Interval::new(700, move || at.set(next))
            });
            if on && count > 0 && now + 1 >= count {
                playing.set(false);
            }
            move || drop(interval)
        });
    }
    let frame = match &*frame {
        None => return html! { <div class="explain" aria-busy="true"></div> },
        Some(Err(error)) => return html! { <p class="error" role="alert">{ error.clone() }</p> },
        Some(Ok(frame)) if frame.count == 0 => return html! { <p>{ "Nothing to assign." }</p> },
        Some(Ok(frame)) => frame,
    };
    let go = |to: usize| {
        let (at, playing) = (at.clone(), playing.clone());
        Callback::from(move |_| {
            playing.set(false);
            at.set(to);
        })
    };
    let toggle_play = {
        let (playing, at) = (playing.clone(), at.clone());
        Callback::from(move |_| {
            if current + 1 >= count {
                at.set(0);
            }
            playing.set(!*playing);
        })
    };
    html! {
        <div class="explain" data-step={(current + 1).to_string()}>
            <div class="controls" role="group" aria-label="walkthrough">
                <button type="button" onclick={go(0)} disabled={current == 0} aria-label="first step">{ "First" }</button>
                <button type="button" onclick={go(current.saturating_sub(1))} disabled={current == 0}>{ "Previous" }</button>
                <button type="button" onclick={toggle_play}>{ if *playing { "Pause" } else { "Play" } }</button>
                <button type="button" onclick={go((current + 1).min(count - 1))} disabled={current + 1 >= count}>{ "Next" }</button>
                <span class="position">{ format!("step {} of {count}", current + 1) }</span>
            </div>
            <p class="sentence" aria-live="polite">{ frame.sentence.clone() }</p>
            if !frame.orders.is_empty() {
                <dl class="orders">
                    { for frame.orders.iter().map(|(name, items)| html! {
                        <div><dt>{ name.clone() }</dt><dd>{ items.clone() }</dd></div>
                    }) }
                </dl>
            }
            <ol class="members">
                { for frame.lists.iter().map(|(member, list)| {
                    let focused = frame.focus_members.contains(member);
                    html! {
                        <li class={classes!("member", focused.then_some("focus"))} data-explain-member={member.clone()}>
                            <span class="name">{ member.clone() }</span>
                            <span class="count">{ list.len() }</span>
                            <span class="chips">
                                { for list.iter().map(|tp| {
                                    let here = Some(tp) == frame.focus_partition.as_ref();
                                    html! { <span class={classes!("chip", here.then_some("focus"))}>{ tp.clone() }</span> }
                                }) }
                            </span>
                        </li>
                    }
                }) }
            </ol>
        </div>
    }
}
