//! How typed values are stored: each as the text a user sees in answers, so the database
//! stays readable with `sqlite3` and a value never depends on an enum's declaration order.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::model::Resolution;

impl ToSql for Resolution {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for Resolution {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let s = value.as_str()?;
        Resolution::parse(s)
            .ok_or_else(|| FromSqlError::Other(format!("unknown resolution {s:?}").into()))
    }
}
