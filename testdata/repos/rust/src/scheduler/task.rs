//! The [`Task`] type and the [`Describe`] trait.

/// Identifier of a task inside one scheduler.
pub type TaskId = u32;

/// Something that can describe itself in one line.
pub trait Describe {
    /// Returns a one-line human readable description.
    fn describe(&self) -> String;
}

/// How urgently a task should run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    Low,
    Normal,
    High,
}

/// A unit of work with optional dependencies on other tasks.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: TaskId,
    pub name: String,
    pub priority: Priority,
    pub deps: Vec<TaskId>,
}

impl Task {
    /// Creates a task with normal priority and no dependencies.
    pub fn new(id: TaskId, name: &str) -> Self {
        Task::with_deps(id, name, Priority::Normal, Vec::new())
    }

    /// Creates a task with an explicit priority and dependency list.
    pub fn with_deps(
        id: TaskId,
        name: &str,
        priority: Priority,
        deps: Vec<TaskId>,
    ) -> Self {
        Task { id, name: name.to_string(), priority, deps }
    }

    /// Returns a label such as `#3 build (High)`.
    pub fn label(&self) -> String {
        let text = self.describe();
        format!("#{} {}", self.id, text)
    }
}

impl Describe for Task {
    /// Describes the task by name and priority.
    fn describe(&self) -> String {
        format!("{} ({:?})", self.name, self.priority)
    }
}
