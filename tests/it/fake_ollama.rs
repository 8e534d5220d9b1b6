//! A scripted Ollama-compatible HTTP server on 127.0.0.1, so the tests exercise the real
//! `ollama-rs` client: `/api/tags` lists the models given, `/api/embed` embeds each input
//! as its letter counts, `/api/chat` answers the scripted replies in order. It counts the
//! requests per path and keeps the chat requests. One thread per connection, so a request
//! left hanging does not block the others.

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

/// What the server does with one `/api/chat` request.
#[derive(Debug, Clone)]
enum Reply {
    Text(String),
    Status(u16, String),
    Hang,
}

/// Builds a [`FakeOllama`].
#[derive(Debug, Default)]
pub struct Builder {
    models: Vec<String>,
    replies: VecDeque<Reply>,
    silent: bool,
    /// Paths answered with `307 Temporary Redirect` to the URL.
    redirects: Vec<(String, String)>,
}

impl Builder {
    /// A model the server has (`name` without a tag is listed as `name:latest`).
    pub fn model(mut self, name: &str) -> Builder {
        let listed = if name.contains(':') {
            name.to_string()
        } else {
            format!("{name}:latest")
        };
        self.models.push(listed);
        self
    }

    /// The next `/api/chat` reply.
    pub fn reply(mut self, text: &str) -> Builder {
        self.replies.push_back(Reply::Text(text.to_string()));
        self
    }

    /// The next `/api/chat` request fails with this status and `{"error": message}`.
    pub fn reply_error(mut self, status: u16, message: &str) -> Builder {
        self.replies
            .push_back(Reply::Status(status, message.to_string()));
        self
    }

    /// The next `/api/chat` request is read and never answered.
    pub fn hang(mut self) -> Builder {
        self.replies.push_back(Reply::Hang);
        self
    }

    /// Accepts connections and reads requests but never answers any.
    pub fn silent(mut self) -> Builder {
        self.silent = true;
        self
    }

    /// Requests on `path` are answered `307` with `Location: to`.
    pub fn redirect(mut self, path: &str, to: &str) -> Builder {
        self.redirects.push((path.to_string(), to.to_string()));
        self
    }

    /// Starts serving on a free loopback port.
    pub fn start(self) -> FakeOllama {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let state = Arc::new(State {
            models: self.models,
            replies: Mutex::new(self.replies),
            silent: self.silent,
            redirects: self.redirects,
            counts: Mutex::new(HashMap::new()),
            chats: Mutex::new(Vec::new()),
        });
        let shared = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let state = shared.clone();
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        FakeOllama { url, state }
    }
}

/// A running fake server; it lives until the test process ends.
pub struct FakeOllama {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    state: Arc<State>,
}

impl FakeOllama {
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Requests received on `path` (`/api/chat`, `/api/tags`, `/api/embed`), answered or not.
    pub fn requests(&self, path: &str) -> usize {
        self.state
            .counts
            .lock()
            .expect("lock")
            .get(path)
            .copied()
            .unwrap_or(0)
    }

    /// The bodies of the `/api/chat` requests, in order.
    pub fn chats(&self) -> Vec<Value> {
        self.state.chats.lock().expect("lock").clone()
    }
}

struct State {
    models: Vec<String>,
    replies: Mutex<VecDeque<Reply>>,
    silent: bool,
    redirects: Vec<(String, String)>,
    counts: Mutex<HashMap<String, usize>>,
    chats: Mutex<Vec<Value>>,
}

impl State {
    fn has(&self, model: &str) -> bool {
        self.models
            .iter()
            .any(|m| m == model || m.strip_suffix(":latest") == Some(model))
    }
}

fn serve(mut stream: TcpStream, state: &State) {
    let Ok(clone) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(clone);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let mut len = 0;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                break;
            }
            if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        *state
            .counts
            .lock()
            .expect("lock")
            .entry(path.clone())
            .or_default() += 1;
        let req: Value = serde_json::from_slice(&body).unwrap_or_default();
        if state.silent {
            hang();
            return;
        }
        if let Some((_, to)) = state.redirects.iter().find(|(p, _)| *p == path) {
            let resp = format!(
                "HTTP/1.1 307 Temporary Redirect\r\nlocation: {to}\r\ncontent-length: 0\r\n\r\n"
            );
            if stream.write_all(resp.as_bytes()).is_err() {
                return;
            }
            continue;
        }
        let (status, json) = match path.as_str() {
            "/api/tags" => (
                200,
                json!({"models": state.models.iter().map(|m| json!({
                    "name": m, "modified_at": "2024-01-01T00:00:00Z", "size": 1
                })).collect::<Vec<_>>()}),
            ),
            "/api/embed" => embed(state, &req),
            "/api/chat" => {
                state.chats.lock().expect("lock").push(req.clone());
                let next = state.replies.lock().expect("lock").pop_front();
                let model = req["model"].as_str().unwrap_or("");
                match next {
                    _ if !state.has(model) => (
                        404,
                        json!({"error": format!("model \"{model}\" not found, try pulling it first")}),
                    ),
                    Some(Reply::Text(text)) => (
                        200,
                        json!({
                            "model": model,
                            "created_at": "2024-01-01T00:00:00Z",
                            "message": {"role": "assistant", "content": text},
                            "done": true,
                            "total_duration": 1, "load_duration": 1,
                            "prompt_eval_count": 1, "prompt_eval_duration": 1,
                            "eval_count": 1, "eval_duration": 1
                        }),
                    ),
                    Some(Reply::Status(code, message)) => (code, json!({"error": message})),
                    Some(Reply::Hang) => {
                        hang();
                        return;
                    }
                    None => (500, json!({"error": "no scripted reply left"})),
                }
            }
            _ => (404, json!({"error": "no such path"})),
        };
        let body = json.to_string();
        let resp = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        if stream.write_all(resp.as_bytes()).is_err() {
            return;
        }
    }
}

/// Holds the connection open, unanswered, for longer than any test waits.
fn hang() {
    std::thread::sleep(Duration::from_secs(60));
}

fn embed(state: &State, req: &Value) -> (u16, Value) {
    let model = req["model"].as_str().unwrap_or("");
    if !state.has(model) {
        return (
            404,
            json!({"error": format!("model \"{model}\" not found")}),
        );
    }
    let inputs: Vec<String> = match &req["input"] {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .map(|v| v.as_str().unwrap_or("").to_string())
            .collect(),
        _ => Vec::new(),
    };
    let embeddings: Vec<Vec<f32>> = inputs
        .iter()
        .map(|t| {
            let mut v = vec![0f32; 26];
            for c in t.to_ascii_lowercase().bytes() {
                if c.is_ascii_lowercase() {
                    v[(c - b'a') as usize] += 1.0;
                }
            }
            v
        })
        .collect();
    (200, json!({"model": model, "embeddings": embeddings}))
}

/// A listener that must receive nothing: it counts the connections and bytes that reach
/// it (standing for another host, or a proxy).
pub struct Sink {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    received: Arc<Mutex<(usize, usize)>>,
}

impl Sink {
    pub fn start() -> Sink {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let received = Arc::new(Mutex::new((0, 0)));
        let shared = received.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let shared = shared.clone();
                std::thread::spawn(move || {
                    shared.lock().expect("lock").0 += 1;
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = stream.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        shared.lock().expect("lock").1 += n;
                    }
                });
            }
        });
        Sink { url, received }
    }

    /// Connections and bytes received so far.
    pub fn received(&self) -> (usize, usize) {
        *self.received.lock().expect("lock")
    }
}
