//! The consumer protocol (KIP-848) on the page: the group's protocol and `group.remote.assignor`
//! with the topics' ids (an editor), and, for a group on the consumer protocol, the server-side
//! assignors' panels — target, diff, metrics, reconciliation lanes — with what moving to the new
//! protocol changes and the client settings to copy. Everything shown is `scenario::server`'s, the
//! values `kap show` prints.
//!
//! Stable hooks for tests: the protocol controls are `[data-group-protocol]` and
//! `[data-remote-assignor]` selects; each server panel is `[data-server-assignor]`, its member rows
//! `[data-member]` with chips `[data-partition]` (the new target) and `[data-revoked]`.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use assignor::consumer_group::ServerAssignor;
use assignor::TopicPartition;
use scenario::config::{self, Target};
use scenario::server::{subscription_name, ServerOutcome, ServerReport};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::state::{Action, Edit, Field};
use crate::ui::config::ClientList;
use crate::ui::fields::{refusal, TextField};
use crate::ui::lanes::Lanes;
use crate::ui::{topic_class, Store};

/// The group's protocol, its server-side assignor and, on the consumer protocol, the topic ids.
#[function_component]
pub fn ProtocolEditor() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let scenario = &store.scenario;
    let consumer = scenario.consumer_protocol();
    let set_protocol = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            store.dispatch(Action::Edit(Edit::SetGroupProtocol { consumer: select.value() == "consumer" }));
        })
    };
    let set_assignor = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(assignor) = select.value().parse::<ServerAssignor>() {
                store.dispatch(Action::Edit(Edit::SetRemoteAssignor { assignor }));
            }
        })
    };
    let current = scenario.server_assignor().unwrap_or(ServerAssignor::Uniform);
    let on_refuse = {
        let store = store.clone();
        Callback::from(move |(field, message): (Field, String)| {
            store.dispatch(Action::Refuse { field, error: refusal(field, message) })
        })
    };
    html! {
        <section class="editor protocol-editor" aria-labelledby="protocol-heading">
            <h2 id="protocol-heading">{ "Group protocol" }</h2>
            <div class="protocol-choice">
                <label>{ "group.protocol " }
                    <select data-group-protocol="" onchange={set_protocol}>
                        <option value="classic" selected={!consumer}>{ "classic" }</option>
                        <option value="consumer" selected={consumer}>{ "consumer (KIP-848)" }</option>
                    </select>
                </label>
                if consumer {
                    <label>{ "group.remote.assignor " }
                        <select data-remote-assignor="" onchange={set_assignor}>
                            { for ServerAssignor::ALL.iter().map(|a| html! {
                                <option value={a.name()} selected={*a == current}>{ a.name() }</option>
                            }) }
                        </select>
                    </label>
                }
            </div>
            if consumer {
                <p class="note">{ "The broker's group coordinator assigns; each consumer's partition.assignment.strategy only drives the classic panels, shown for comparison. Topic ids decide ties in uniform: type a cluster's to reproduce it." }</p>
                <table class="topic-ids">
                    <thead><tr><th scope="col">{ "Topic" }</th><th scope="col">{ "Topic id" }</th></tr></thead>
                    <tbody>
                        { for scenario.topics.iter().enumerate().map(|(i, topic)| {
                            let derived = scenario::topic_id::derived(&topic.name).to_string();
                            let on_input = {
                                let store = store.clone();
                                Callback::from(move |text: String| {
                                    let text = text.trim().to_string();
                                    store.dispatch(Action::Edit(Edit::SetTopicId { topic: i, id: (!text.is_empty()).then_some(text) }))
                                })
                            };
                            html! {
                                <tr key={i} class={topic_class(i)} data-topic-id={topic.topic_id().map(|id| id.to_string()).unwrap_or_default()}>
                                    <td><span class="swatch" aria-hidden="true"></span>{ topic.name.clone() }</td>
                                    <td><TextField label={format!("Topic id of {}", topic.name)} compact=true value={topic.id.clone().unwrap_or_default()}
                                        placeholder={derived} field={Field::TopicId(i)} error={store.refusal(Field::TopicId(i)).map(AttrValue::from)}
                                        {on_input} on_refuse={on_refuse.clone()} /></td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }
        </section>
    }
}

/// The server-side panels, what moving to the consumer protocol changes, and the settings: shown for
/// a group on the consumer protocol.
#[function_component]
pub fn ConsumerProtocolResults() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    // Interim, until the server panels render from the worker's digests as the strategy panels
    // do: a consumer-protocol group's report, computed here (a classic group's is not).
    let computed =
        use_memo(Rc::clone(&store.scenario), |s| s.consumer_protocol().then(|| scenario::report::Report::new(s)));
    let Some(computed) = computed.as_ref().as_ref() else { return html! {} };
    let Some(assignor) = computed.server_assignor else { return html! {} };
    let topic_index = use_memo(Rc::clone(&store.scenario), |s| {
        s.topics.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect::<HashMap<_, _>>()
    });
    let migration = scenario::server::migration(computed);
    let target = Target::Consumer(match assignor {
        ServerAssignor::Uniform => config::ServerAssignor::Uniform,
        ServerAssignor::Range => config::ServerAssignor::Range,
    });
    html! {
        <section class="consumer-protocol" aria-labelledby="consumer-protocol-heading">
            <h2 id="consumer-protocol-heading">{ "Consumer protocol (KIP-848): the broker assigns" }</h2>
            <div class="panels server-panels">
                { for computed.servers.iter().map(|report| html! {
                    <ServerPanel key={report.assignor.name()} report={report.clone()} chosen={report.assignor == assignor}
                        topic_index={Rc::clone(&topic_index)} show_diff={store.scenario.view.diff} />
                }) }
            </div>
            if !migration.is_empty() {
                <div class="migration-advice">
                    <h3>{ "What moving to the consumer protocol changes" }</h3>
                    <ul class="migration-lines">{ for migration.iter().map(|line| html! { <li>{ line.clone() }</li> }) }</ul>
                    <div class="consumer-settings">
                        <ClientList key={target.to_string()} {target} context=" for the consumer protocol" />
                    </div>
                </div>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ServerPanelProps {
    report: ServerReport,
    /// Whether this is the group's `group.remote.assignor`.
    chosen: bool,
    topic_index: Rc<HashMap<String, usize>>,
    show_diff: bool,
}

#[function_component]
fn ServerPanel(props: &ServerPanelProps) -> Html {
    let name = props.report.assignor.name();
    let heading = format!("{name} (server)");
    let body = match &props.report.outcome {
        Err(e) => {
            html! { <p class="error" role="alert">{ format!("Kafka's coordinator cannot assign this group: {e}") }</p> }
        }
        Ok(outcome) => outcome_view(outcome, props),
    };
    let subscription = props.report.outcome.as_ref().ok().map(|o| subscription_name(o.subscription_type));
    html! {
        <section class={classes!("panel", "server-panel", props.chosen.then_some("chosen-panel"))} data-server-assignor={name} aria-labelledby={format!("server-panel-{name}")}>
            <header>
                <h3 id={format!("server-panel-{name}")}>{ heading }</h3>
                if let Some(subscription) = subscription {
                    <span class="protocol" title="the coordinator's subscription type: whether every member subscribes to the same topics">{ subscription }</span>
                }
                if props.chosen {
                    <span class="chosen" title="the group's group.remote.assignor">{ "the group's choice" }</span>
                }
            </header>
            { body }
        </section>
    }
}

fn outcome_view(outcome: &Arc<ServerOutcome>, props: &ServerPanelProps) -> Html {
    let metrics = &outcome.metrics;
    let max = metrics.max.max(1);
    let show_diff = props.show_diff && !outcome.before.values().all(Vec::is_empty);
    let chip = |tp: &TopicPartition, kind: &'static str| {
        let class = classes!("chip", topic_class(props.topic_index.get(&*tp.topic).copied().unwrap_or(0)), kind);
        let text = tp.to_string();
        match kind {
            "revoked" => {
                html! { <span {class} data-revoked={text.clone()} title={format!("{text}: revoked")}>{ text }</span> }
            }
            _ => {
                html! { <span {class} data-partition={text.clone()} title={format!("{text}: {kind}")}>{ text }</span> }
            }
        }
    };
    let rows = outcome.target.iter().map(|(member, list)| {
        let change = outcome.diff.members.get(member);
        let added: Vec<&TopicPartition> = change.map(|c| c.added.iter().collect()).unwrap_or_default();
        let revoked: &[TopicPartition] = if show_diff { change.map(|c| c.revoked.as_slice()).unwrap_or_default() } else { &[] };
        let most = metrics.most_loaded.contains(member) && metrics.spread() > 0;
        html! {
            <li class={classes!("member", most.then_some("most-loaded"), list.is_empty().then_some("idle"))} data-member={member.clone()} key={member.clone()}>
                <span class="name">{ member.clone() }</span>
                <span class="count" aria-label={format!("{} partitions", list.len())}>{ list.len() }</span>
                <span class="bar" aria-hidden="true"><span style={format!("width:{}%", 100 * list.len() / max)}></span></span>
                <span class="chips">
                    { for list.iter().map(|tp| chip(tp, if show_diff && added.contains(&tp) { "added" } else { "kept" })) }
                    { for revoked.iter().map(|tp| chip(tp, "revoked")) }
                </span>
            </li>
        }
    });
    let moved = outcome.moved();
    let stopped = outcome.reconciliation.as_ref().map(|r| r.stops.len());
    html! {
        <>
            <dl class="metrics">
                <div><dt>{ "spread" }</dt><dd class={classes!((metrics.spread() > 1).then_some("warn"))}>{ format!("{} (max {}, min {})", metrics.spread(), metrics.max, metrics.min) }</dd></div>
                if metrics.spread() > 0 {
                    <div><dt>{ "most loaded" }</dt><dd>{ metrics.most_loaded.join(", ") }</dd></div>
                }
                if metrics.unassigned > 0 {
                    <div><dt>{ "unassigned" }</dt><dd class="warn">{ metrics.unassigned }</dd></div>
                }
                if !metrics.idle.is_empty() {
                    <div><dt>{ "idle" }</dt><dd class="warn">{ metrics.idle.join(", ") }</dd></div>
                }
                if show_diff {
                    <div><dt>{ "moved" }</dt><dd data-moved={moved.to_string()}>{ format!("{moved} of {}", metrics.assigned) }</dd></div>
                    if let Some(stopped) = stopped {
                        <div><dt title="partitions nobody consumed for a while, between two heartbeats">{ "stopped" }</dt><dd data-stopped={stopped.to_string()}>{ stopped }</dd></div>
                    }
                    <div><dt title="partitions taken from a member that still subscribes and keeps as many or more">{ "needless moves" }</dt><dd>{ outcome.needless_moves }</dd></div>
                }
            </dl>
            <ol class="members">{ for rows }</ol>
            if show_diff {
                <Lanes outcome={Arc::clone(outcome)} />
            }
        </>
    }
}
