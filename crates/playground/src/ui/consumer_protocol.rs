//! The consumer protocol (KIP-848) on the page: the group's protocol and `group.remote.assignor`
//! with the topics' ids (an editor), and, for a group on the consumer protocol, the server-side
//! assignors' panels — target, diff, metrics, reconciliation lanes — with what moving to the new
//! protocol changes and the client settings to copy. Everything shown is the compute worker's
//! answer (`Computed::consumer`, from `scenario::server`: the values `kap show` prints); nothing
//! here assigns.
//!
//! Stable hooks for tests: the protocol controls are `[data-group-protocol]` and
//! `[data-remote-assignor]` selects; each server panel is `[data-server-assignor]`, its member rows
//! `[data-member]` with chips `[data-partition]` (the new target) and `[data-revoked]`
//! (`ui::panel`).

use std::rc::Rc;

use scenario::config::{ServerAssignor, Target};
use scenario::StrategyId;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use playground::computed::Computed;

use crate::state::{Action, Edit, Field};
use crate::ui::config::ClientList;
use crate::ui::fields::{refusal, TextField};
use crate::ui::panel::{MemberSource, StrategyPanel};
use crate::ui::Same;
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
/// a group whose painted answer is on the consumer protocol. Everything comes from that answer (the
/// compute worker's `Computed::consumer`); the panels are drawn by the classic panels' renderer.
#[derive(Properties, PartialEq)]
pub struct ResultsProps {
    /// The answer painted, compared by identity: the section renders again for a new answer only.
    pub shown: Same<Computed>,
    /// Whether the rebalance diff is shown.
    pub diff: bool,
    /// Whether the panels offer the explain walkthrough (not in embeds).
    pub explain: bool,
    /// How many of the panels are rendered yet: the results region reveals them one per frame.
    pub limit: usize,
    /// Told when a panel's first rows are all in (`StrategyPanel`).
    pub on_rows_in: Callback<()>,
}

#[function_component]
pub fn ConsumerProtocolResults(props: &ResultsProps) -> Html {
    let Some(details) = use_context::<MemberSource>() else { return html! {} };
    let Some(consumer) = &props.shown.0.consumer else { return html! {} };
    let StrategyId::Server(assignor) = consumer.chosen else { return html! {} };
    let target = Target::Consumer(assignor);
    html! {
        <section class="consumer-protocol" aria-labelledby="consumer-protocol-heading">
            <h2 id="consumer-protocol-heading">{ "Consumer protocol (KIP-848): the broker assigns" }</h2>
            <div class="panels server-panels">
                { for consumer.panels.iter().take(props.limit).map(|digest| html! {
                    <StrategyPanel key={digest.panel.name()} digest={Rc::clone(digest)} details={details.clone()}
                        show_diff={props.diff} explain={props.explain} chosen={digest.panel == consumer.chosen}
                        on_rows_in={props.on_rows_in.clone()} />
                }) }
            </div>
            if !consumer.migration.is_empty() {
                <div class="migration-advice">
                    <h3>{ "What moving to the consumer protocol changes" }</h3>
                    <ul class="migration-lines">{ for consumer.migration.iter().map(|line| html! { <li>{ line.clone() }</li> }) }</ul>
                    <div class="consumer-settings">
                        <ClientList key={target.to_string()} {target} context=" for the consumer protocol" />
                    </div>
                </div>
            }
        </section>
    }
}
