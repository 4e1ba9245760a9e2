//! The tools module's entry point: a run of one of [`crate::tools`]' commands, which the
//! host drives: it asks [`ToolRun::step`] what the command needs, reads that through the
//! shell's filesystem, answers, and steps again until the command is done.

use super::convert::set;
use crate::tools::{self, Answers, Failed, Outcome, Stat};
use js_sys::{Array, Object, Uint8Array};
use wasm_bindgen::prelude::*;

/// The names of the commands the tools module answers.
#[wasm_bindgen(js_name = toolNames)]
pub fn tool_names() -> Vec<String> {
    tools::names().map(String::from).collect()
}

/// One command line of a tool, and the answers its host has given so far.
#[wasm_bindgen]
pub struct ToolRun {
    name: String,
    args: Vec<String>,
    stdin: Vec<u8>,
    answers: Answers,
}

#[wasm_bindgen]
impl ToolRun {
    /// `name args…` with `stdin`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: String, args: Vec<String>, stdin: Vec<u8>) -> ToolRun {
        ToolRun { name, args, stdin, answers: Answers::default() }
    }

    /// A file's bytes.
    #[wasm_bindgen(js_name = answerRead)]
    pub fn answer_read(&mut self, path: String, bytes: Vec<u8>) {
        self.answers.reads.insert(path, Ok(bytes));
    }

    /// What is at a path: its absolute form, whether a directory, its size.
    #[wasm_bindgen(js_name = answerStat)]
    pub fn answer_stat(&mut self, path: String, absolute: String, dir: bool, size: f64) {
        self.answers.stats.insert(path, Ok(Stat { absolute, dir, size: size as u64 }));
    }

    /// A directory's entry names.
    #[wasm_bindgen(js_name = answerList)]
    pub fn answer_list(&mut self, path: String, mut names: Vec<String>) {
        names.sort();
        self.answers.lists.insert(path, Ok(names));
    }

    /// The file or directory asked for (`create`, `mkdir`) was made.
    #[wasm_bindgen(js_name = answerMade)]
    pub fn answer_made(&mut self, path: String) {
        self.answers.made.insert(path, Ok(()));
    }

    /// Why a question (`read`, `stat`, `list`, `create` or `mkdir`) about a path failed:
    /// the errno's name and strerror's words for it.
    #[wasm_bindgen(js_name = answerFailed)]
    pub fn answer_failed(&mut self, ask: &str, path: String, code: &str, text: &str) {
        let failed = Failed::new(code, text);
        match ask {
            "stat" => drop(self.answers.stats.insert(path, Err(failed))),
            "list" => drop(self.answers.lists.insert(path, Err(failed))),
            "create" | "mkdir" => drop(self.answers.made.insert(path, Err(failed))),
            _ => drop(self.answers.reads.insert(path, Err(failed))),
        }
    }

    /// A variable of the command's environment the tools read (`TMPDIR`).
    #[wasm_bindgen(js_name = setVar)]
    pub fn set_var(&mut self, name: String, value: String) {
        self.answers.vars.insert(name, value);
    }

    /// Random bytes for the command line (`mktemp`'s names), given once, before the first step.
    #[wasm_bindgen(js_name = setRandom)]
    pub fn set_random(&mut self, bytes: Vec<u8>) {
        self.answers.random = bytes;
    }

    /// Runs the command over what has been answered: `{ need: [[ask, path], …] }`, or
    /// `{ stdout: Uint8Array, stderr, stderrAt: [[stdout bytes, stderr bytes], …], status, writes:
    /// [{ path, bytes, append }], runs: [argv, …] }`.
    pub fn step(&self) -> Result<JsValue, JsValue> {
        let outcome = tools::run(&self.name, &self.args, &self.stdin, &self.answers)
            .ok_or_else(|| super::convert::invalid(format!("{}: not a command of the tools module", self.name)))?;
        let out = Object::new();
        match outcome {
            Outcome::Need(asks) => {
                let need: Array = asks
                    .iter()
                    .map(|(ask, path)| Array::of2(&JsValue::from_str(ask.name()), &JsValue::from_str(path)))
                    .collect();
                set(&out, "need", need);
            }
            Outcome::Done(done) => {
                set(&out, "stdout", Uint8Array::from(done.stdout.as_slice()));
                set(&out, "stderr", done.stderr);
                let at: Array = done
                    .stderr_at
                    .iter()
                    .map(|&(o, e)| JsValue::from(Array::of2(&JsValue::from(o as u32), &JsValue::from(e as u32))))
                    .collect();
                set(&out, "stderrAt", at);
                set(&out, "status", done.status);
                let writes: Array = done
                    .writes
                    .iter()
                    .map(|w| {
                        let o = Object::new();
                        set(&o, "path", w.path.as_str());
                        set(&o, "bytes", Uint8Array::from(w.bytes.as_slice()));
                        set(&o, "append", w.append);
                        JsValue::from(o)
                    })
                    .collect();
                set(&out, "writes", writes);
                let runs: Array = done
                    .runs
                    .iter()
                    .map(|argv| JsValue::from(argv.iter().map(|a| JsValue::from_str(a)).collect::<Array>()))
                    .collect();
                set(&out, "runs", runs);
            }
        }
        Ok(out.into())
    }
}

/// What the host prints when it cannot write a file a tool wrote (`sort -o`, `sed w`,
/// `awk > file`): `{ message, status }`, in the tool's words.
#[wasm_bindgen(js_name = writeFailure)]
pub fn write_failure(name: &str, path: &str, text: &str) -> JsValue {
    let (message, status) = tools::write_failure(name, path, text);
    let out = Object::new();
    set(&out, "message", message);
    set(&out, "status", status);
    out.into()
}
