#!/usr/bin/env python3
"""Writes the Parquet and Arrow IPC files of testdata/columnar/ (kept in
git; tests/it/viz_parse_formats.rs reads them) with the writers people
use, from one small table that is also written as CSV (penguins.csv), so
a test can check each file charts as the CSV does.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pyarrow duckdb pandas polars
    /tmp/venv/bin/python testdata/columnar/make.py

Made with pyarrow 26.0.1, duckdb 2.0.1, pandas 3.1.1, polars 2.1.0.
"""
import datetime
import os

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)

# 30 penguins: species, a measurement with one missing, a mass, a date.
species = ["Adelie", "Gentoo", "Chinstrap"]
rows = []
for i in range(30):
    rows.append(
        {
            "species": species[i % 3],
            "bill_length_mm": None if i == 7 else round(35 + (i * 7.3) % 15, 1),
            "body_mass_g": 3000 + (i * 377) % 2500,
            "date": datetime.date(2024, 1, 1) + datetime.timedelta(days=i),
        }
    )
table = pa.Table.from_pylist(rows)

with open("penguins.csv", "w") as f:
    f.write("species,bill_length_mm,body_mass_g,date\n")
    for r in rows:
        bill = "" if r["bill_length_mm"] is None else repr(r["bill_length_mm"])
        f.write(f'{r["species"]},{bill},{r["body_mass_g"]},{r["date"].isoformat()}\n')

# pyarrow: snappy (its default), several row groups.
pq.write_table(table, "penguins.pyarrow.parquet", row_group_size=8)
# pandas: the species as a category (a dictionary column), gzip.
df = table.to_pandas()
df["species"] = df["species"].astype("category")
df.to_parquet("penguins.pandas.parquet", compression="gzip", index=False)
# polars: zstd (its default), large strings.
pl.from_arrow(table).write_parquet("penguins.polars.parquet")
# duckdb: its own writer, zstd.
con = duckdb.connect()
con.register("t", table)
con.execute("COPY t TO 'penguins.duckdb.parquet' (FORMAT parquet, COMPRESSION zstd)")
# Arrow IPC: a Feather v2 file (lz4, pyarrow's default) and a stream.
feather.write_feather(table, "penguins.arrow")
with ipc.new_stream("penguins.arrows", table.schema) as w:
    for batch in table.to_batches(max_chunksize=10):
        w.write_batch(batch)

# Types beside the plain ones, from duckdb: decimals, timestamps with and
# without a time zone, a boolean and a list (which is not charted).
con.execute("SET TimeZone = 'UTC'")
con.execute(
    """
    COPY (
      SELECT * FROM (VALUES
        ('a', 12.50::DECIMAL(10,2), TIMESTAMP '2024-03-01 10:30:00',
         TIMESTAMPTZ '2024-03-01 10:30:00+00', true, [1, 2]),
        ('b', -3.25::DECIMAL(10,2), TIMESTAMP '2024-03-02 00:00:00',
         TIMESTAMPTZ '2024-03-02 12:00:00+00', false, [3])
      ) v(name, amount, local_time, utc_time, ok, tags)
    ) TO 'types.duckdb.parquet' (FORMAT parquet)
    """
)
