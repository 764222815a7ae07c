//! A server-side panel's reconciliation (`reconcile::simulate`, through `scenario::server`): per
//! member, a lane of what it consumes before the first heartbeat and after each heartbeat that changes
//! something, coloured by the coordinator's member state, and the partitions that stop, for how many
//! heartbeats. Heartbeats go in the consumers' order, round after round.
//!
//! Hooks for tests: each lane is `tr[data-lane=member]`, each of its cells `[data-after=heartbeat]`
//! with `data-consuming` (the partitions, space-separated) and `data-state`; each stop is
//! `li[data-stop=partition]` with `data-heartbeats`.

use std::collections::BTreeSet;
use std::sync::Arc;

use assignor::consumer_group::reconcile::MemberState;
use assignor::TopicPartition;
use scenario::server::{state_name, ServerOutcome, MAX_RECONCILED};
use yew::prelude::*;

#[derive(Properties)]
pub struct LanesProps {
    pub outcome: Arc<ServerOutcome>,
}

/// Outcomes are shared: an unchanged one is the same allocation.
impl PartialEq for LanesProps {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.outcome, &other.outcome)
    }
}

#[function_component]
pub fn Lanes(props: &LanesProps) -> Html {
    let outcome = &props.outcome;
    let Some(reconciliation) = &outcome.reconciliation else {
        return html! {
            <p class="note lanes-note">{ format!("Heartbeat by heartbeat: not simulated for more than {MAX_RECONCILED} members × partitions.") }</p>
        };
    };
    let lanes = &reconciliation.lanes;
    let samples = lanes.values().map(|l| l.consuming.len()).max().unwrap_or(0);
    // The state a lane is in at each sample (before the first heartbeat: STABLE).
    let state_at = |lane: &assignor::consumer_group::reconcile::Lane, sample: usize| {
        sample.checked_sub(1).and_then(|i| lane.states.get(i)).copied().unwrap_or(MemberState::Stable)
    };
    // The first sample, then each heartbeat after which some lane changed.
    let columns: Vec<usize> = (0..samples)
        .filter(|&s| {
            s == 0
                || lanes.values().any(|lane| {
                    lane.consuming.get(s) != lane.consuming.get(s - 1) || state_at(lane, s) != state_at(lane, s - 1)
                })
        })
        .collect();
    let members = outcome.heartbeats.len().max(1);
    let header = |sample: usize| {
        if sample == 0 {
            return html! { <th scope="col">{ "before" }</th> };
        }
        let member = outcome.heartbeats.get((sample - 1) % members).cloned().unwrap_or_default();
        html! {
            <th scope="col" title={format!("after heartbeat {sample} of the group: {member}'s, round {}", (sample - 1) / members + 1)}>
                { format!("{sample} · {member}") }
            </th>
        }
    };
    let text = |set: &BTreeSet<TopicPartition>| {
        if set.is_empty() {
            "–".to_string()
        } else {
            scenario::compact(&set.iter().cloned().collect::<Vec<_>>())
        }
    };
    let rows = outcome.heartbeats.iter().filter_map(|member| {
        let lane = lanes.get(member)?;
        Some(html! {
            <tr key={member.clone()} data-lane={member.clone()}>
                <th scope="row">{ member.clone() }</th>
                { for columns.iter().map(|&s| {
                    let consuming = lane.consuming.get(s).cloned().unwrap_or_default();
                    let state = state_at(lane, s);
                    let class = match state {
                        MemberState::Stable => "stable",
                        MemberState::UnrevokedPartitions => "unrevoked",
                        MemberState::UnreleasedPartitions => "unreleased",
                    };
                    let names: Vec<String> = consuming.iter().map(ToString::to_string).collect();
                    html! {
                        <td class={class} data-after={s.to_string()} data-state={state_name(state)} data-consuming={names.join(" ")}
                            title={format!("{member}: {} ({})", names.join(", "), state_name(state))}>
                            { text(&consuming) }
                        </td>
                    }
                }) }
            </tr>
        })
    });
    let stops = &reconciliation.stops;
    let summary = if stops.is_empty() {
        "No partition stops: a rebalance with no stop at all.".to_string()
    } else {
        format!(
            "Every partition a member keeps is consumed after every heartbeat; only the {} that change owner stop:",
            stops.len()
        )
    };
    html! {
        <div class="lanes">
            <p class="lanes-caption">{ format!(
                "Reconciliation to epoch {}: heartbeats in the order {}, round after round ({} round{}).",
                outcome.epoch, outcome.heartbeats.join(", "), reconciliation.rounds, if reconciliation.rounds == 1 { "" } else { "s" }
            ) }</p>
            <div class="lanes-scroll">
                <table>
                    <thead><tr><th scope="col">{ "member" }</th>{ for columns.iter().map(|&s| header(s)) }</tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <p class="lanes-legend"><span class="unrevoked">{ "revoking (UNREVOKED_PARTITIONS)" }</span>{ " " }<span class="unreleased">{ "waiting for partitions still held (UNRELEASED_PARTITIONS)" }</span></p>
            <p class="lanes-summary">{ summary }</p>
            if !stops.is_empty() {
                <ul class="stops">
                    { for stops.iter().map(|stop| html! {
                        <li data-stop={stop.partition.to_string()} data-heartbeats={stop.heartbeats.to_string()}>
                            { format!("{}: {} → {}, nobody consumes it for {} heartbeat{}", stop.partition, stop.from, stop.to, stop.heartbeats, if stop.heartbeats == 1 { "" } else { "s" }) }
                        </li>
                    }) }
                </ul>
            }
            if !reconciliation.converged {
                <p class="warn">{ "The members had not all reached the target when the simulation stopped." }</p>
            }
        </div>
    }
}
