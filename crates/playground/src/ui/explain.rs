//! The walkthrough: a strategy's decisions for the current group, one step at a time, with the
//! partition and members of each step highlighted and the orders it walks shown, as the seed
//! article's figures do.

use std::rc::Rc;

use assignor::Strategy;
use gloo::timers::callback::Interval;
use scenario::report::Walkthrough;
use yew::prelude::*;

use crate::ui::Store;

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub strategy: Strategy,
}

/// The walkthrough of the current scenario, or why there is none.
fn record(scenario: &scenario::Scenario, strategy: Strategy) -> Result<Walkthrough, String> {
    let model = scenario::Model::new(scenario)
        .map_err(|problems| problems.first().map(ToString::to_string).unwrap_or_default())?;
    Walkthrough::new(&model, strategy).map_err(|e| e.to_string())
}

#[function_component]
pub fn Explain(props: &ExplainProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let walkthrough =
        use_memo((Rc::clone(&store.scenario), props.strategy), |(scenario, strategy)| record(scenario, *strategy));
    let at = use_state(|| 0usize);
    let playing = use_state(|| false);
    let count = (*walkthrough).as_ref().map_or(0, |w| w.steps.len());
    {
        // Play: one step every 700 ms until the end.
        let (at, playing) = (at.clone(), playing.clone());
        use_effect_with((*playing, *at), move |(on, now)| {
            let interval = (*on && now + 1 < count).then(|| {
                let next = now + 1;
                Interval::new(700, move || at.set(next))
            });
            if *on && now + 1 >= count {
                playing.set(false);
            }
            move || drop(interval)
        });
    }
    let walkthrough = match &*walkthrough {
        Ok(walkthrough) => walkthrough,
        Err(error) => return html! { <p class="error" role="alert">{ error.clone() }</p> },
    };
    let current = (*at).min(count.saturating_sub(1));
    let Some(step) = walkthrough.steps.get(current).map(|s| &s.step) else {
        return html! { <p>{ "Nothing to assign." }</p> };
    };
    let lists = walkthrough.lists_after(current + 1);
    let orders = walkthrough.orders_after(current + 1);
    let (focus_partition, focus_members) = step.focus();
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
            <p class="sentence" aria-live="polite">{ step.to_string() }</p>
            if !orders.is_empty() {
                <dl class="orders">
                    { for orders.iter().map(|(name, items)| html! {
                        <div><dt>{ name.to_string() }</dt><dd>{ items.join(", ") }</dd></div>
                    }) }
                </dl>
            }
            <ol class="members">
                { for lists.iter().map(|(member, list)| {
                    let focused = focus_members.contains(&member.as_str());
                    html! {
                        <li class={classes!("member", focused.then_some("focus"))} data-explain-member={member.clone()}>
                            <span class="name">{ member.clone() }</span>
                            <span class="count">{ list.len() }</span>
                            <span class="chips">
                                { for list.iter().map(|tp| {
                                    let here = Some(tp) == focus_partition;
                                    html! { <span class={classes!("chip", here.then_some("focus"))}>{ tp.to_string() }</span> }
                                }) }
                            </span>
                        </li>
                    }
                }) }
            </ol>
        </div>
    }
}
