//! The forms: topics, consumers with their subscription grid, and the one-click rebalance
//! triggers. Each control dispatches one `Edit`; `scenario` refuses what is invalid.

use scenario::{ConsumerSpec, TopicSpec};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::state::{Action, Edit, Field};
use crate::ui::fields::{CountField, TextField};
use crate::ui::{topic_class, Store};

/// `"a, b ,c"` to `["a", "b", "c"]`.
fn split_list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// A callback, for any DOM event, that makes one edit.
fn on<E: 'static>(store: &Store, edit: Edit) -> Callback<E> {
    let store = store.clone();
    Callback::from(move |_| store.dispatch(Action::Edit(edit.clone())))
}

/// A callback that makes the edit `make` builds from a field's value.
fn on_value<T: 'static>(store: &Store, make: impl Fn(T) -> Edit + 'static) -> Callback<T> {
    let store = store.clone();
    Callback::from(move |value: T| store.dispatch(Action::Edit(make(value))))
}

fn optional(text: String) -> Option<String> {
    let text = text.trim().to_string();
    (!text.is_empty()).then_some(text)
}

#[function_component]
pub fn TopicsEditor() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let topics = store.scenario.topics.clone();
    let rows = topics.iter().enumerate().map(|(i, topic)| topic_row(&store, i, topic));
    let add = on(&store, Edit::AddTopic);
    html! {
        <section class="editor" aria-labelledby="topics-heading">
            <h2 id="topics-heading">{ "Topics" }</h2>
            <table class="topics">
                <thead><tr>
                    <th scope="col">{ "Name" }</th><th scope="col">{ "Partitions" }</th>
                    <th scope="col">{ "Replicas × racks" }</th><th scope="col"><span class="sr-only">{ "Actions" }</span></th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <button type="button" onclick={add}>{ "Add topic" }</button>
        </section>
    }
}

fn topic_row(store: &Store, i: usize, topic: &TopicSpec) -> Html {
    let rename = on_value(store, move |name| Edit::RenameTopic { topic: i, name });
    let set_partitions = on_value(store, move |partitions| Edit::SetPartitions { topic: i, partitions });
    let factor = topic.replicas.as_ref().map_or(0, |l| l.factor);
    let racks = topic.replicas.as_ref().map(|l| scenario::format::replica_racks_text(&l.racks)).unwrap_or_default();
    let set_factor = on_value(store, move |text: String| Edit::SetReplicationFactor {
        topic: i,
        factor: text.trim().parse().unwrap_or(0),
    });
    let set_racks = on_value(store, move |text: String| Edit::SetReplicaRacks {
        topic: i,
        racks: scenario::format::parse_replica_racks(&text),
    });
    let remove = on(store, Edit::RemoveTopic { topic: i });
    let racks_known = topic.replicas.is_some() || !topic.rack_overrides.is_empty();
    html! {
        <key={i}>
        <tr class={topic_class(i)} data-topic={topic.name.clone()}>
            <td><span class="swatch" aria-hidden="true"></span>
                <TextField label={format!("Name of topic {}", i + 1)} compact=true value={topic.name.clone()} field={Field::TopicName(i)} on_input={rename} /></td>
            <td><CountField label={format!("Partitions of {}", topic.name)} value={topic.partitions} field={Field::Partitions(i)} on_set={set_partitions} /></td>
            <td class="replicas">
                <TextField label={format!("Replication factor of {}", topic.name)} compact=true kind="number" value={if factor == 0 { String::new() } else { factor.to_string() }} placeholder="–" field={Field::ReplicationFactor(i)} on_input={set_factor} />
                <TextField label={format!("Racks of {}", topic.name)} compact=true value={racks} placeholder="no racks (- for a broker without one)" field={Field::ReplicaRacks(i)} on_input={set_racks} />
            </td>
            <td><button type="button" class="icon" aria-label={format!("Remove topic {}", topic.name)} onclick={remove}>{ "✕" }</button></td>
        </tr>
        if racks_known {
            <tr class="partition-racks"><td colspan="4">{ partition_racks(store, i, topic) }</td></tr>
        }
        </>
    }
}

/// The most partitions whose racks are edited one by one.
const RACK_EDIT_LIMIT: u32 = 64;

/// Each partition's replica racks, editable one by one (an override of the layout).
fn partition_racks(store: &Store, i: usize, topic: &TopicSpec) -> Html {
    if topic.partitions > RACK_EDIT_LIMIT {
        return html! { <p class="hint">{ format!("Racks follow the layout (per-partition editing up to {RACK_EDIT_LIMIT} partitions).") }</p> };
    }
    let rows = (0..topic.partitions).map(|p| {
        let on_input = on_value(store, move |text: String| {
            let racks = (!text.trim().is_empty() || text.contains(',')).then(|| scenario::format::parse_replica_racks(&text));
            Edit::SetPartitionRacks { topic: i, partition: p, racks }
        });
        let overridden = topic.rack_overrides.contains_key(&p);
        html! {
            <span class={classes!("partition-rack", overridden.then_some("overridden"))}>
                <span class="pnum" aria-hidden="true">{ p }</span>
                <TextField label={format!("Replica racks of {}-{p}", topic.name)} compact=true value={scenario::format::replica_racks_text(&topic.racks_of(p))}
                    placeholder="none (- for a broker without a rack)" field={Field::PartitionRacks(i, p)} {on_input} />
            </span>
        }
    });
    html! {
        <details>
            <summary>{ format!("Racks of each partition of {}", topic.name) }</summary>
            <div class="partition-rack-grid">{ for rows }</div>
        </details>
    }
}

#[function_component]
pub fn ConsumersEditor() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let scenario = store.scenario.clone();
    let add = on(&store, Edit::AddConsumer);
    html! {
        <section class="editor" aria-labelledby="consumers-heading">
            <h2 id="consumers-heading">{ "Consumers and subscriptions" }</h2>
            <div class="scroll">
            <table class="consumers">
                <thead><tr>
                    <th scope="col">{ "member.id" }</th>
                    <th scope="col">{ "group.instance.id" }</th>
                    <th scope="col">{ "client.rack" }</th>
                    <th scope="col">{ "partition.assignment.strategy" }</th>
                    { for scenario.topics.iter().enumerate().map(|(t, topic)| html! {
                        <th scope="col" class={classes!("topic-col", topic_class(t))}><span class="swatch" aria-hidden="true"></span>{ topic.name.clone() }</th>
                    }) }
                    <th scope="col">{ "Patterns" }</th>
                    <th scope="col"><span class="sr-only">{ "Actions" }</span></th>
                </tr></thead>
                <tbody>
                    { for scenario.consumers.iter().enumerate().map(|(i, c)| consumer_row(&store, i, c, &scenario.topics)) }
                </tbody>
            </table>
            </div>
            <button type="button" onclick={add}>{ "Add consumer" }</button>
        </section>
    }
}

fn consumer_row(store: &Store, i: usize, consumer: &ConsumerSpec, topics: &[TopicSpec]) -> Html {
    let rename = on_value(store, move |id| Edit::RenameConsumer { consumer: i, id });
    let instance = on_value(store, move |t| Edit::SetInstanceId { consumer: i, instance_id: optional(t) });
    let rack = on_value(store, move |t| Edit::SetRack { consumer: i, rack: optional(t) });
    let strategies = on_value(store, move |t: String| Edit::SetStrategies { consumer: i, strategies: split_list(&t) });
    let patterns = on_value(store, move |t: String| Edit::SetPatterns { consumer: i, patterns: split_list(&t) });
    let id = consumer.id.clone();
    html! {
        <tr key={i} data-consumer={id.clone()}>
            <th scope="row"><TextField label={format!("member.id of consumer {}", i + 1)} compact=true value={id.clone()} field={Field::ConsumerId(i)} on_input={rename} /></th>
            <td><TextField label={format!("group.instance.id of {id}")} compact=true placeholder="dynamic" value={consumer.instance_id.clone().unwrap_or_default()} field={Field::InstanceId(i)} on_input={instance} /></td>
            <td><TextField label={format!("client.rack of {id}")} compact=true placeholder="none" value={consumer.rack.clone().unwrap_or_default()} field={Field::Rack(i)} on_input={rack} /></td>
            <td><TextField label={format!("partition.assignment.strategy of {id}")} compact=true value={consumer.strategies.join(", ")} field={Field::Strategies(i)} on_input={strategies} /></td>
            { for topics.iter().enumerate().map(|(t, topic)| {
                let checked = consumer.topics.contains(&topic.name);
                let onchange = on(store, Edit::ToggleSubscription { consumer: i, topic: t });
                html! { <td class={classes!("grid", topic_class(t))}>
                    <input type="checkbox" {checked} {onchange} aria-label={format!("{id} subscribes to {}", topic.name)} />
                </td> }
            }) }
            <td><TextField label={format!("Pattern subscriptions of {id}")} compact=true placeholder="e.g. test-.*" value={consumer.patterns.join(", ")} field={Field::Patterns(i)} on_input={patterns} /></td>
            <td class="actions">
                <button type="button" onclick={on(store, Edit::DuplicateConsumer { consumer: i })} aria-label={format!("Duplicate {id}")}>{ "Duplicate" }</button>
                <button type="button" class="danger" onclick={on(store, Edit::Leave { consumer: i })} aria-label={format!("{id} crashes or leaves")}>{ "Crash" }</button>
            </td>
        </tr>
    }
}

/// The rebalance triggers of the seed articles as one-click events.
#[function_component]
pub fn EventsBar() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let topic_choice = use_state(|| 0usize);
    let scenario = store.scenario.clone();
    let chosen = Some(*topic_choice).filter(|&i| i < scenario.topics.len()).unwrap_or(0);
    let pattern = scenario.consumers.iter().any(|c| !c.patterns.is_empty());
    let pick_topic = {
        let topic_choice = topic_choice.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            topic_choice.set(select.selected_index().max(0) as usize);
        })
    };
    html! {
        <section class="events" aria-labelledby="events-heading">
            <h2 id="events-heading">{ "Trigger a rebalance" }</h2>
            <button type="button" onclick={on(&store, Edit::Join)}>{ "A consumer joins" }</button>
            <span class="group">
                <label class="sr-only" for="grow-topic">{ "Topic to grow" }</label>
                <select id="grow-topic" onchange={pick_topic}>
                    { for scenario.topics.iter().enumerate().map(|(i, t)| html! { <option selected={i == *topic_choice}>{ t.name.clone() }</option> }) }
                </select>
                if let Some(t) = scenario.topics.get(chosen) {
                    <button type="button" onclick={on(&store, Edit::GrowTopic { topic: chosen })}>{ format!("Add partitions to {}", t.name) }</button>
                }
            </span>
            <button type="button" onclick={on(&store, Edit::CreateTopic)}>{ if pattern { "Create a topic matching the pattern" } else { "Create a topic" } }</button>
            <span class="hint">{ "Crash a consumer from its row; subscribe with the grid." }</span>
        </section>
    }
}
