//! The walkthrough: a strategy's decisions for the current group, one step at a time, with the
//! partition and members of each step highlighted and the orders it walks shown, as the seed
//! article's figures do.

use std::collections::BTreeMap;
use std::rc::Rc;

use assignor::trace::{self, Step};
use assignor::{Strategy, TopicPartition};
use gloo::timers::callback::Interval;
use yew::prelude::*;

use crate::ui::Store;

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub strategy: Strategy,
}

/// The recorded steps and the members in JoinGroup order.
struct Walkthrough {
    steps: Vec<Step>,
    members: Vec<String>,
    error: Option<String>,
}

fn record(scenario: &scenario::Scenario, strategy: Strategy) -> Walkthrough {
    let model = match scenario::Model::new(scenario) {
        Ok(model) => model,
        Err(problems) => {
            return Walkthrough {
                steps: Vec::new(),
                members: Vec::new(),
                error: problems.first().map(ToString::to_string),
            }
        }
    };
    let group = model.group(strategy);
    let mut steps = Vec::new();
    let error = assignor::assign_traced(strategy, &group, &mut steps).err().map(|e| e.to_string());
    Walkthrough { steps, members: group.members.iter().map(|m| m.id.clone()).collect(), error }
}

#[function_component]
pub fn Explain(props: &ExplainProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let walkthrough =
        use_memo((Rc::clone(&store.scenario), props.strategy), |(scenario, strategy)| record(scenario, *strategy));
    let at = use_state(|| 0usize);
    let playing = use_state(|| false);
    let count = walkthrough.steps.len();
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
    if let Some(error) = &walkthrough.error {
        return html! { <p class="error" role="alert">{ error.clone() }</p> };
    }
    let current = (*at).min(count.saturating_sub(1));
    let mut lists: BTreeMap<String, Vec<TopicPartition>> =
        walkthrough.members.iter().map(|m| (m.clone(), Vec::new())).collect();
    for step in walkthrough.steps.iter().take(current + 1) {
        trace::apply(&mut lists, step);
    }
    // The orders in force at this step: the latest of each name.
    let mut orders: Vec<(&str, &[String])> = Vec::new();
    for step in walkthrough.steps.iter().take(current + 1) {
        if let Step::Order { name, items } = step {
            orders.retain(|(n, _)| *n != name.as_str());
            orders.push((name, items));
        }
    }
    let Some(step) = walkthrough.steps.get(current) else {
        return html! { <p>{ "Nothing to assign." }</p> };
    };
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
                <button type="button" onclick={go(0)} disabled={current == 0} aria-label="first step">{ "⏮" }</button>
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
