//! A dataset's table as an Arrow C stream (`__arrow_c_stream__`, the Arrow PyCapsule interface): pyarrow
//! (`pa.table(stream)`) and Polars (`pl.DataFrame(stream)`) take the batches' column buffers as they are, the
//! memory the Parquet reader filled, without a copy.

use std::path::PathBuf;

use arrow::array::{Array, RecordBatch, RecordBatchIterator};
use arrow::datatypes::SchemaRef;
use arrow::ffi_stream::FFI_ArrowArrayStream;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// A table's record batches, read once; handed over whole to the first consumer of the stream.
#[pyclass(module = "haifu._haifu")]
pub struct TableStream {
    schema: SchemaRef,
    batches: Option<Vec<RecordBatch>>,
    /// The dataset and table, for the messages.
    name: String,
}

#[pymethods]
impl TableStream {
    /// The Arrow PyCapsule interface: a capsule holding an `ArrowArrayStream` of the batches. The schema a
    /// consumer requests is not cast to: the table's own types are what haifu documents (docs/SCHEMA.md).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let batches = self.batches.take().ok_or_else(|| {
            crate::bad_argument(format!("{}: this stream was read already (call haifu.table again)", self.name))
        })?;
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), self.schema.clone());
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// Rows of the table (before it is read).
    fn num_rows(&self) -> usize {
        self.batches.iter().flatten().map(RecordBatch::num_rows).sum()
    }

    /// The address of every column's buffers in every batch, in the order pyarrow lists a chunk's buffers
    /// (validity first, absent as 0): what the test of no copy compares with pyarrow's.
    fn buffer_addresses(&self) -> Vec<Vec<Vec<usize>>> {
        let column = |c: &dyn Array| -> Vec<usize> {
            let data = c.to_data();
            let validity = data.nulls().map_or(0, |n| n.buffer().as_ptr() as usize);
            std::iter::once(validity).chain(data.buffers().iter().map(|b| b.as_ptr() as usize)).collect()
        };
        self.batches.iter().flatten().map(|b| b.columns().iter().map(|c| column(c.as_ref())).collect()).collect()
    }

    fn __repr__(&self) -> String {
        format!("<haifu table stream {} ({} rows)>", self.name, self.num_rows())
    }
}

/// The table `table` of the dataset at `dataset` (every part its part list names, checked), or only the named
/// columns. Parts written before a column existed lack it: they are refused here, naming the part.
#[pyfunction]
#[pyo3(signature = (dataset, table, columns = None))]
fn read_table(py: Python<'_>, dataset: PathBuf, table: &str, columns: Option<Vec<String>>) -> PyResult<TableStream> {
    let name = format!("{} table {table}", dataset.display());
    let batches = py
        .detach(|| match &columns {
            Some(c) => {
                let c: Vec<&str> = c.iter().map(String::as_str).collect();
                haifu_ingest::stored::read_columns(&dataset, table, &c)
            }
            None => haifu_ingest::stored::read_table(&dataset, table),
        })
        .map_err(|e| crate::error(&e))?;
    let schema = match batches.first() {
        Some(b) => b.schema(),
        None => haifu_ingest::stored::table_schema(&dataset, table).map_err(|e| crate::error(&e))?,
    };
    if let Some(b) = batches.iter().find(|b| b.schema() != schema) {
        return Err(crate::bad_argument(format!(
            "{name}: its parts differ in their columns ({} against {}); name the columns to read",
            b.schema().fields().len(),
            schema.fields().len()
        )));
    }
    Ok(TableStream { schema, batches: Some(batches), name })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TableStream>()?;
    m.add_function(wrap_pyfunction!(read_table, m)?)?;
    Ok(())
}
