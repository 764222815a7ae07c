//! Running the `kap` binary from the CLI's integration tests (each test file is its own crate and
//! uses one of these, hence the `dead_code` allowance).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;

use serde_json::Value;
use std::process::{Command, Stdio};

/// `kap ARGS`: whether it succeeded, its stdout and its stderr.
pub fn kap(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kap")).args(args).output().expect("kap runs");
    (output.status.success(), String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
}

/// `kap ARGS < stdin`: whether it succeeded, its stdout and its stderr.
pub fn kap_stdin(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kap"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kap runs");
    // kap may answer (and exit) before it has read everything, e.g. on a bad argument: a broken
    // pipe here is its answer, not the test's failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing kap's stdin: {e}");
    }
    let output = child.wait_with_output().unwrap();
    (output.status.success(), String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
}

/// A fixed-seed generator, so every run sees the same groups.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The assignment after `steps`, rebuilt from their changes alone, as a consumer of the output does.
pub fn replay(steps: &[Value], members: &[&str]) -> serde_json::Map<String, Value> {
    let mut lists: serde_json::Map<String, Value> =
        members.iter().map(|m| (m.to_string(), Value::Array(vec![]))).collect();
    for change in steps.iter().flat_map(|s| s["changes"].as_array().unwrap()) {
        let list = lists.get_mut(change["member"].as_str().unwrap()).unwrap().as_array_mut().unwrap();
        if let Some(added) = change.get("add") {
            list.push(added.clone());
        } else if let Some(removed) = change.get("remove") {
            list.retain(|p| p != removed);
        } else {
            *list = change["order"].as_array().unwrap().clone();
        }
    }
    lists
}
