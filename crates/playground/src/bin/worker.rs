//! The compute worker (a Web Worker built by Trunk from this binary): it runs the strategies for
//! the page and keeps what each version settled into (`playground::work::Engine`). The page may
//! run two, each computing its share of the strategies (`work::Share`, from the worker's name).
//! It answers one request at a time; the page sends the next only once it has the answer, so no
//! stale work waits here.

use std::cell::RefCell;

use playground::work::{Engine, Message, Reply, Request, Share};
use wasm_bindgen::prelude::{Closure, JsValue};
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Array, Uint8Array};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    let Ok(scope) = web_sys::js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else { return };
    // The page names each worker after its share of the strategies (`work::Share`).
    let engine = RefCell::new(Engine::new(Share::named(&scope.name())));
    let replies = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let bytes = event.data().dyn_into::<Uint8Array>().map(|b| b.to_vec()).unwrap_or_default();
        let reply = match Request::decode(&bytes) {
            Ok(Request::Compute { jobs, keep, history }) => {
                let clock = replies.performance();
                let started = clock.as_ref().map_or(0.0, |c| c.now());
                if let Some((version, parts)) = history {
                    engine.borrow_mut().receive(version, &parts);
                }
                let answer = engine.borrow_mut().compute(jobs, &keep);
                answer.map(|mut answer| {
                    answer.compute_ms = clock.as_ref().map_or(0.0, |c| c.now()) - started;
                    Reply::Answer(Box::new(answer))
                })
            }
            Ok(Request::Settle { jobs, keep, history }) => {
                if let Some((version, parts)) = history {
                    engine.borrow_mut().receive(version, &parts);
                }
                engine.borrow_mut().settle(jobs, &keep).map(|answer| Reply::Answer(Box::new(answer)))
            }
            Ok(Request::Generation { version, generation }) => {
                engine.borrow_mut().generation(version, generation);
                None
            }
            Ok(Request::Part { ticket, prior }) => Some(Reply::Part { ticket, part: engine.borrow().part(prior) }),
            Ok(Request::Member { version, request, again }) => {
                let detail = engine.borrow_mut().member(version, &request, again);
                Some(Reply::Member { version, request, current: detail.is_ok(), detail: detail.ok().flatten() })
            }
            Ok(Request::Write { ticket, prior, scenario, parts }) => {
                Some(Reply::Written { ticket, texts: engine.borrow().write_with(prior, &scenario, &parts) })
            }
            Ok(Request::Walk { request, scenario }) => {
                let frame = engine.borrow_mut().walk(&request, &scenario);
                Some(Reply::Walk { request, frame })
            }
            Ok(Request::Import { ticket, request }) => {
                Some(Reply::Imported { ticket, reading: Box::new(request.read()) })
            }
            Ok(Request::Open { ticket, request }) => Some(Reply::Opened { ticket, opened: Box::new(request.open()) }),
            Ok(Request::Read { ticket, text }) => Some(Reply::Read { ticket, scenario: text.read() }),
            Ok(Request::Plan { ticket, request }) => Some(Reply::Planned { ticket, plan: request.plan() }),
            Err(error) => Some(Reply::Unreadable(error.to_string())),
        };
        if let Some(reply) = reply {
            post(&replies, &reply);
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The page's messages reach this worker only from here on: the page waits for this.
    on_message.forget();
    post(&scope, &Reply::Ready);
}

fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply) {
    // Bytes (`Reply::encode`): their buffer is handed to the page (transferred), not copied again.
    let Ok(bytes) = reply.encode() else {
        let _ = scope.post_message(&JsValue::NULL);
        return;
    };
    let array = Uint8Array::from(bytes.as_slice());
    let _ = scope.post_message_with_transfer(&array, &Array::of1(&array.buffer()));
}
