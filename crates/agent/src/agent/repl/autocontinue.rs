//! When the model goes on without the user: in `-i`, a turn that ends
//! without a `need_input` signal is followed by a "Continue." turn, up to
//! `--max-consecutive-turns` in a row; `--auto-continue off` never
//! continues. The loop also stops the chain when the user typed a line or
//! pressed Ctrl-C meanwhile (see `super::term`); this module only decides
//! from what the turn reported.

use crate::agent::TurnReport;

/// The user turn sent when the model continues on its own.
pub const CONTINUE: &str = "Continue.";

#[derive(Debug, Clone, Copy)]
pub struct AutoContinue {
    pub on: bool,
    pub max: u32,
}

/// What comes after a turn.
#[derive(Debug, PartialEq, Eq)]
pub enum After {
    /// Continue with turn `n` of the chain (1-based).
    Continue(u32),
    /// Wait for the user; the note says why, when it is not plain.
    Wait(Option<String>),
}

impl AutoContinue {
    pub fn new(on: bool, max: u32) -> AutoContinue {
        AutoContinue { on, max }
    }

    /// After a turn that was the `streak`-th taken on the model's own (0:
    /// the user's own question).
    pub fn next(&self, streak: u32, report: &TurnReport) -> After {
        if !self.on || report.signalled("need_input") {
            return After::Wait(None);
        }
        if report.signalled("task_complete") {
            return After::Wait(Some("the model says the task is complete".into()));
        }
        if streak >= self.max {
            return After::Wait((self.max > 0).then(|| {
                format!(
                    "auto-continue stopped after {} turn(s) in a row (--max-consecutive-turns); waiting for you",
                    self.max
                )
            }));
        }
        After::Continue(streak + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Signal;

    fn report(signal: Option<&str>) -> TurnReport {
        TurnReport {
            signals: signal
                .map(|k| Signal {
                    kind: k.into(),
                    progress: None,
                    message: None,
                })
                .into_iter()
                .collect(),
            ..TurnReport::default()
        }
    }

    #[test]
    fn continues_until_the_limit_or_a_request_for_input() {
        let a = AutoContinue::new(true, 2);
        assert_eq!(a.next(0, &report(None)), After::Continue(1));
        assert_eq!(a.next(1, &report(Some("progress"))), After::Continue(2));
        assert!(
            matches!(a.next(2, &report(None)), After::Wait(Some(m)) if m.contains("after 2 turn(s)"))
        );
        assert_eq!(a.next(0, &report(Some("need_input"))), After::Wait(None));
        assert!(matches!(
            a.next(0, &report(Some("task_complete"))),
            After::Wait(Some(_))
        ));
    }

    #[test]
    fn off_and_zero_never_continue() {
        let off = AutoContinue::new(false, 5);
        assert_eq!(off.next(0, &report(None)), After::Wait(None));
        let zero = AutoContinue::new(true, 0);
        assert_eq!(zero.next(0, &report(None)), After::Wait(None));
    }
}
