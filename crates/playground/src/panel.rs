//! One strategy's panel: a row of partition chips per member, or the assignor's error.

use assignor::Strategy;
use yew::prelude::*;

use crate::demo::Row;

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub strategy: Strategy,
    pub outcome: Result<Vec<Row>, String>,
}

#[function_component]
pub fn Panel(props: &PanelProps) -> Html {
    let body = match &props.outcome {
        Ok(rows) => rows.iter().map(member_row).collect::<Html>(),
        Err(text) => html! { <p class="error" role="alert">{ text }</p> },
    };
    html! {
        <section class="panel" data-strategy={props.strategy.name()}>
            <h2>{ props.strategy.name() }</h2>
            { body }
        </section>
    }
}

fn member_row(row: &Row) -> Html {
    html! {
        <div class="member" data-member={row.member.clone()}>
            <span class="member-id">{ &row.member }</span>
            { for row.partitions.iter().map(|p| html! {
                <span class="chip" data-partition={p.clone()}>{ p }</span>
            }) }
        </div>
    }
}
