//! A server-side panel's reconciliation, drawn from its `ReconciliationDigest` (the compute worker's
//! `reconcile::simulate`, through `scenario::server`): per member, a lane of what it consumes before
//! the first heartbeat and after each heartbeat that changes something, coloured by the coordinator's
//! member state, and the partitions that stop, for how many heartbeats. Heartbeats go in the
//! consumers' order, round after round.
//!
//! Hooks for tests: each lane is `tr[data-lane=member]`, each of its cells `[data-after=heartbeat]`
//! with `data-consuming` (the partitions, space-separated) and `data-state`; each stop is
//! `li[data-stop=partition]` with `data-heartbeats`.

use std::sync::Arc;

use assignor::TopicPartition;
use scenario::digest::{LaneSample, LaneState, ReconciliationDigest, LANE_CELLS, NAMES_SHOWN};
use scenario::server::MAX_RECONCILED;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    /// `None`: the group is too large to simulate heartbeat by heartbeat.
    pub reconciliation: Option<Arc<ReconciliationDigest>>,
    /// The panel's topic names, which lanes and stops index.
    pub topics: Arc<[String]>,
}

#[function_component]
pub fn Lanes(props: &LanesProps) -> Html {
    let Some(reconciliation) = &props.reconciliation else {
        return html! {
            <p class="note lanes-note">{ format!("Heartbeat by heartbeat: not simulated for more than {MAX_RECONCILED} members × partitions.") }</p>
        };
    };
    let r = &**reconciliation;
    let members = r.heartbeats.len().max(1);
    let partition = |&(topic, partition): &(u32, u32)| {
        let name = props.topics.get(topic as usize).map_or("?", String::as_str);
        TopicPartition::new(name, partition)
    };
    let header = |sample: usize| {
        if sample == 0 {
            return html! { <th scope="col">{ "before" }</th> };
        }
        let member = r.heartbeats.get((sample - 1) % members).cloned().unwrap_or_default();
        html! {
            <th scope="col" title={format!("after heartbeat {sample} of the group: {member}'s, round {}", (sample - 1) / members + 1)}>
                { format!("{sample} · {member}") }
            </th>
        }
    };
    let cell = |member: &str, sample: &LaneSample, column: usize| {
        let consuming: Vec<TopicPartition> = sample.consuming.iter().map(partition).collect();
        let names: Vec<String> = consuming.iter().map(ToString::to_string).collect();
        let text = if consuming.is_empty() { "–".to_string() } else { scenario::compact(&consuming) };
        let class = match sample.state {
            LaneState::Stable => "stable",
            LaneState::UnrevokedPartitions => "unrevoked",
            LaneState::UnreleasedPartitions => "unreleased",
        };
        let state = sample.state.name();
        html! {
            <td class={class} data-after={column.to_string()} data-state={state} data-consuming={names.join(" ")}
                title={format!("{member}: {} ({state})", names.join(", "))}>
                { text }
            </td>
        }
    };
    let rows = r.lanes.iter().map(|lane| {
        // Each column shows the lane's last change at or before it.
        let mut at = 0;
        let cells = r.columns.iter().filter_map(|&column| {
            while lane.samples.get(at + 1).is_some_and(|next| next.after <= column) {
                at += 1;
            }
            lane.samples.get(at).map(|sample| cell(&lane.member, sample, column))
        });
        html! {
            <tr key={lane.member.clone()} data-lane={lane.member.clone()}>
                <th scope="row">{ lane.member.clone() }</th>
                { for cells }
            </tr>
        }
    });
    let summary = if r.stop_count == 0 {
        "No partition stops: a rebalance with no stop at all.".to_string()
    } else {
        format!(
            "Every partition a member keeps is consumed after every heartbeat; only the {} that change owner stop:",
            r.stop_count
        )
    };
    let order = if r.heartbeats.len() > NAMES_SHOWN {
        format!("{} and {} more", r.heartbeats[..NAMES_SHOWN].join(", "), r.heartbeats.len() - NAMES_SHOWN)
    } else {
        r.heartbeats.join(", ")
    };
    html! {
        <div class="lanes">
            <p class="lanes-caption">{ format!(
                "Reconciliation to epoch {}: heartbeats in the order {order}, round after round ({} round{}).",
                r.epoch, r.rounds, if r.rounds == 1 { "" } else { "s" }
            ) }</p>
            if r.lanes.is_empty() {
                <p class="note lanes-note">{ format!("{} lanes × {} heartbeats are more than {LANE_CELLS} cells: not drawn (kap show --json lists them).", r.heartbeats.len(), r.columns.len()) }</p>
            } else {
                <div class="lanes-scroll">
                    <table>
                        <thead><tr><th scope="col">{ "member" }</th>{ for r.columns.iter().map(|&s| header(s)) }</tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
                <p class="lanes-legend"><span class="unrevoked">{ "revoking (UNREVOKED_PARTITIONS)" }</span>{ " " }<span class="unreleased">{ "waiting for partitions still held (UNRELEASED_PARTITIONS)" }</span></p>
            }
            <p class="lanes-summary">{ summary }</p>
            if !r.stops.is_empty() {
                <ul class="stops">
                    { for r.stops.iter().map(|stop| {
                        let partition = partition(&(stop.topic, stop.partition)).to_string();
                        html! {
                            <li data-stop={partition.clone()} data-heartbeats={stop.heartbeats.to_string()}>
                                { format!("{partition}: {} → {}, nobody consumes it for {} heartbeat{}", stop.from, stop.to, stop.heartbeats, if stop.heartbeats == 1 { "" } else { "s" }) }
                            </li>
                        }
                    }) }
                    if r.stop_count > r.stops.len() {
                        <li>{ format!("and {} more", r.stop_count - r.stops.len()) }</li>
                    }
                </ul>
            }
            if !r.converged {
                <p class="warn">{ "The members had not all reached the target when the simulation stopped." }</p>
            }
        </div>
    }
}
