//! Dependency-aware planning of tasks.

pub mod task;

use crate::util::{gcd, normalize};
use task::{Describe, Priority, Task, TaskId};

/// Plans the execution order of a set of tasks.
pub struct Scheduler {
    workers: usize,
    tasks: Vec<Task>,
}

impl Scheduler {
    /// Creates an empty scheduler for `workers` workers.
    pub fn new(workers: usize) -> Self {
        Scheduler { workers, tasks: Vec::new() }
    }

    /// Adds a task, normalizing its name first.
    pub fn add(&mut self, mut task: Task) {
        task.name = normalize(&task.name);
        self.tasks.push(task);
    }

    /// Returns task ids in dependency order (dependencies first).
    pub fn plan(&self) -> Vec<TaskId> {
        let mut out = Vec::new();
        for task in &self.tasks {
            self.visit(task.id, &mut out);
        }
        out
    }

    /// Appends `id` to `out` after all of its dependencies.
    fn visit(&self, id: TaskId, out: &mut Vec<TaskId>) {
        if out.contains(&id) {
            return;
        }
        if let Some(task) = self.find(id) {
            self.visit_deps(task, out);
        }
        out.push(id);
    }

    /// Visits every dependency of `task`.
    fn visit_deps(&self, task: &Task, out: &mut Vec<TaskId>) {
        for dep in &task.deps {
            self.visit(*dep, out);
        }
    }

    /// Looks a task up by id.
    fn find(&self, id: TaskId) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// Number of planned tasks.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Renders a header line plus one line per urgent task.
    pub fn report(&self) -> Vec<String> {
        /// Local normalizer: upper-cases instead of lower-casing.
        fn normalize(line: String) -> String {
            line.to_uppercase()
        }
        let mut lines = Vec::new();
        lines.push(self.describe());
        for task in &self.tasks {
            if task.priority == Priority::High {
                lines.push(normalize(task.label()));
            }
        }
        lines
    }
}

impl Describe for Scheduler {
    /// Describes the scheduler by its size and batch width.
    fn describe(&self) -> String {
        let count = self.len();
        let batch = gcd(self.workers, count);
        format!("{count} tasks in batches of {batch}")
    }
}
