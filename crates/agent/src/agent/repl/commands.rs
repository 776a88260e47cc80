//! The REPL's slash commands: what a typed line means. A line starting
//! with `/` is a command; `//` escapes a prompt that itself starts with a
//! slash (`//etc/hosts is empty?` sends `/etc/hosts is empty?`). Parsing
//! is separate from running so every spelling is tested without a
//! terminal.

/// One slash command, as the table lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Help,
    Quit,
    New,
    History,
    Clear,
    Save(String),
    Load(String),
    Model(String),
    Tools,
    Interrupt,
    /// A file (or https URL) sent with the next question.
    Attach(String),
    /// `/memory VERB ...`: the words after `/memory`.
    Memory(Vec<String>),
}

/// What a line typed at the prompt is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// Nothing but blanks: the prompt is shown again.
    Empty,
    /// A prompt for the model.
    Prompt(String),
    Command(Command),
    /// A command spelled wrong; the text says how to spell it.
    Invalid(String),
}

/// Every command with its argument and what it does, for `/help`.
pub const HELP: &[(&str, &str)] = &[
    ("/help", "list the commands"),
    ("/quit", "leave (also Ctrl-D)"),
    ("/new", "start a new session"),
    ("/history", "this session's turns"),
    ("/clear", "clear the screen"),
    ("/save NAME", "save the session under a name"),
    ("/load NAME", "load a saved session"),
    ("/model NAME", "switch the model"),
    ("/tools", "the declared tools and MCP servers"),
    ("/interrupt", "stop auto-continue and wait for input"),
    (
        "/attach FILE",
        "send a file (or https URL) with the next question",
    ),
    ("/memory ...", "the long-term memory (/memory help)"),
];

/// Reads one line typed at the prompt.
pub fn parse(line: &str) -> Line {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Line::Empty;
    }
    if let Some(rest) = trimmed.strip_prefix("//") {
        return Line::Prompt(format!("/{rest}"));
    }
    let Some(rest) = trimmed.strip_prefix('/') else {
        return Line::Prompt(line.trim_end_matches(['\r', '\n']).to_string());
    };
    let (name, arg) = match rest.split_once(char::is_whitespace) {
        Some((n, a)) => (n, a.trim()),
        None => (rest, ""),
    };
    let bare = |c: Command| {
        if arg.is_empty() {
            Line::Command(c)
        } else {
            Line::Invalid(format!("/{name} takes no argument"))
        }
    };
    let named = |make: fn(String) -> Command| {
        if arg.is_empty() || arg.split_whitespace().count() > 1 {
            Line::Invalid(format!("usage: /{name} NAME"))
        } else {
            Line::Command(make(arg.to_string()))
        }
    };
    match name.to_ascii_lowercase().as_str() {
        "help" | "?" => bare(Command::Help),
        "quit" | "exit" => bare(Command::Quit),
        "new" => bare(Command::New),
        "history" => bare(Command::History),
        "clear" => bare(Command::Clear),
        "save" => named(Command::Save),
        "load" => named(Command::Load),
        "model" => named(Command::Model),
        "tools" => bare(Command::Tools),
        "interrupt" => bare(Command::Interrupt),
        // The whole rest is the path: file names have blanks.
        "attach" if !arg.is_empty() => Line::Command(Command::Attach(arg.to_string())),
        "attach" => Line::Invalid("usage: /attach FILE (or an https:// URL)".into()),
        "memory" => match shlex::split(arg) {
            Some(words) => Line::Command(Command::Memory(words)),
            None => Line::Invalid("/memory: a quote is not closed".into()),
        },
        _ => Line::Invalid(format!(
            "unknown command /{}: /help lists the commands (// starts a prompt with a slash)",
            crate::term::sanitize_line(name)
        )),
    }
}

/// The `/help` text, one command a line, the descriptions aligned.
pub fn help_text() -> String {
    let w = HELP.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    let mut s = String::new();
    for (c, what) in HELP {
        s.push_str(&format!("  {c:<w$}  {what}\n"));
    }
    s.push_str(
        "  Ctrl-C stops an answer; typing a line while the model continues on its own stops it after that answer.\n",
    );
    s
}

impl super::Repl {
    /// Runs a slash command; only `/quit` ends the session.
    pub(super) fn command(&mut self, c: Command) -> anyhow::Result<super::Flow> {
        use super::sessions::history_text;
        match c {
            Command::Help => self.term.say(&help_text()),
            Command::Quit => return Ok(super::Flow::Exit(crate::agent::exit::OK)),
            Command::New => {
                self.set_task_aside();
                self.current.start_new()?;
                self.agent.set_history(&crate::session::History::default());
                self.agent.toolbox.new_conversation();
                self.agent.topic = None;
                self.announce()?;
                self.memory_session();
                let id = self.current.id.clone();
                self.term.note(&format!("new session {id}"));
            }
            Command::History => {
                let text =
                    history_text(&self.agent.history, self.term.cols(), !self.term.unicode());
                self.term.say(&text);
            }
            Command::Clear => self.editor.clear_screen()?,
            Command::Save(name) => match self.current.save_as(
                &name,
                &self.args.ask.model,
                &self.agent.history,
                self.agent.topic.as_deref(),
            ) {
                Ok(m) => {
                    if let Some(h) = self.current.reload() {
                        self.agent.set_history(&h);
                    }
                    self.memory_session();
                    self.term.note(&m)
                }
                Err(e) => self.term.warn(&e.to_string()),
            },
            Command::Load(name) => match self.current.load(&name) {
                Ok(loaded) => {
                    self.set_task_aside();
                    for w in &loaded.warnings {
                        self.term.warn(w);
                    }
                    let n = super::sessions::turns(&loaded.history.contents).len();
                    self.agent.set_history(&loaded.history);
                    self.agent.toolbox.new_conversation();
                    self.agent.topic = loaded.history.topic.clone();
                    self.announce()?;
                    self.memory_session();
                    self.term.note(&format!(
                        "loaded session {name}: {n} turn(s); /history lists them"
                    ));
                }
                Err(e) => self.term.warn(&e.to_string()),
            },
            Command::Model(name) => {
                self.args.ask.model = name;
                // The client carries the model: the next question makes a new one.
                self.client = None;
                self.announce()?;
                let m = self.args.ask.model.clone();
                self.term
                    .note(&format!("model: {m} from the next question on"));
            }
            Command::Tools => {
                let list = crate::agent::toolbox::format_tool_list(&self.agent.toolbox.list());
                self.term.say(&list);
            }
            Command::Interrupt => self
                .term
                .note("auto-continue is stopped; waiting for your input"),
            Command::Attach(word) => self.attach(&word),
            Command::Memory(words) => self.memory_command(words)?,
        }
        Ok(super::Flow::Go)
    }

    /// `/attach`: the file is checked now (a refusal says why, as `-a`
    /// would) and goes with the next question.
    fn attach(&mut self, word: &str) {
        if word == "-" {
            return self
                .term
                .warn("/attach takes a file or an https:// URL, not stdin");
        }
        let provider = self.agent.attach.provider;
        match crate::agent::attach::send::open(&[word.to_string()], provider, None) {
            Ok(list) => {
                for a in &list {
                    let what = a.mime.as_deref().unwrap_or("a URL");
                    let size = if a.size > 0 {
                        format!(", {}", crate::agent::attach::human(a.size))
                    } else {
                        String::new()
                    };
                    self.term.note(&format!(
                        "attached {} ({what}{size}): it goes with your next question",
                        crate::term::sanitize_line(&a.name)
                    ));
                }
                self.agent.attach.add(list);
            }
            Err(e) => self.term.warn(&e.to_string()),
        }
    }

    /// A new or loaded conversation does not carry the task on.
    fn set_task_aside(&mut self) {
        if self.task.take().is_some() {
            self.term.note(
                "the task is set aside: this is a chat now (start a task with gem-ask -i -t)",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_prompts() {
        assert_eq!(parse("  "), Line::Empty);
        assert_eq!(parse("hello there"), Line::Prompt("hello there".into()));
        assert_eq!(parse("/help"), Line::Command(Command::Help));
        assert_eq!(
            parse("/attach my scan.png"),
            Line::Command(Command::Attach("my scan.png".into()))
        );
        assert!(matches!(parse("/attach"), Line::Invalid(_)));
        assert_eq!(parse(" /QUIT "), Line::Command(Command::Quit));
        assert_eq!(
            parse("/save bmw-1"),
            Line::Command(Command::Save("bmw-1".into()))
        );
        assert_eq!(
            parse("/model  gemini-3.1-pro-preview"),
            Line::Command(Command::Model("gemini-3.1-pro-preview".into()))
        );
        assert_eq!(parse("/interrupt"), Line::Command(Command::Interrupt));
        assert_eq!(parse("//etc is"), Line::Prompt("/etc is".into()));
        assert_eq!(
            parse("/memory add --tag infra 'deploy host: build-7'"),
            Line::Command(Command::Memory(vec![
                "add".into(),
                "--tag".into(),
                "infra".into(),
                "deploy host: build-7".into()
            ]))
        );
        assert_eq!(parse("/memory"), Line::Command(Command::Memory(vec![])));
        assert!(matches!(parse("/memory add 'open"), Line::Invalid(_)));
    }

    #[test]
    fn misspelled_commands_say_how() {
        assert_eq!(parse("/save"), Line::Invalid("usage: /save NAME".into()));
        assert_eq!(
            parse("/load a b"),
            Line::Invalid("usage: /load NAME".into())
        );
        assert_eq!(
            parse("/new now"),
            Line::Invalid("/new takes no argument".into())
        );
        match parse("/frobnicate\x1b") {
            Line::Invalid(m) => {
                assert!(m.contains("/frobnicate^["), "{m}");
                assert!(!m.contains('\x1b'));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn help_lists_every_command() {
        let h = help_text();
        for name in [
            "/help",
            "/quit",
            "/new",
            "/history",
            "/clear",
            "/save NAME",
            "/load NAME",
            "/model NAME",
            "/tools",
            "/interrupt",
            "/memory",
        ] {
            assert!(h.contains(name), "{name}");
        }
    }
}
