-- capacity.sql: one row of sizer's --capacity-file (docs/capacity.md) for the database this
-- session is connected to. Run it in SQL*Plus or SQLcl as a user who can read the DBA and
-- DBA_HIST views, once per database, and concatenate the outputs (keep one header line):
--
--   sqlplus -s / as sysdba @capacity.sql > caps-DBNAME.csv
--
-- key                  the DB Id (v$database.dbid): sizer matches it before any name.
-- size                 datafiles + tempfiles + online redo logs (every member), in GiB:
--                      dba_data_files.bytes + dba_temp_files.bytes + v$log.bytes × members.
--                      In a CDB, connected to the root, use cdb_data_files / cdb_temp_files
--                      instead, so the PDBs' files are counted too.
-- growth_pct_per_year  the compound yearly growth of the used space over the AWR history:
--                      dba_hist_tbspc_space_usage.tablespace_usedsize (in blocks) × the
--                      tablespace's block size, summed per day; from the first day U0 to the
--                      last day U1, D days apart: ((U1 / U0) ^ (365.25 / D) − 1) × 100.
--                      Left empty with fewer than 7 days of history.
-- horizon              left empty: give --horizon (e.g. 3y), or fill it per row.
--
-- DBA_HIST views are part of the Oracle Diagnostics Pack: check your licence before
-- querying them. Oracle's AWR Miner, the eSP collector and Google's Database Migration
-- Assessment read database size from these same views (data files, temp files, redo logs,
-- tablespace usage history).
set heading off feedback off pagesize 0 linesize 200 trimspool on verify off tab off
prompt key,size,growth_pct_per_year,horizon
with files as (
  select (select nvl(sum(bytes), 0) from dba_data_files)
       + (select nvl(sum(bytes), 0) from dba_temp_files)
       + (select nvl(sum(bytes * members), 0) from v$log) as bytes
  from dual
), usage as (
  select trunc(to_date(u.rtime, 'MM/DD/YYYY HH24:MI:SS')) as day,
         sum(u.tablespace_usedsize * t.block_size) as used
  from dba_hist_tbspc_space_usage u
  join v$tablespace vt on vt.ts# = u.tablespace_id
  join dba_tablespaces t on t.tablespace_name = vt.name
  where u.dbid = (select dbid from v$database)
  group by trunc(to_date(u.rtime, 'MM/DD/YYYY HH24:MI:SS'))
), ends as (
  select min(day) as d0,
         max(day) as d1,
         max(used) keep (dense_rank first order by day) as u0,
         max(used) keep (dense_rank last order by day) as u1
  from usage
)
select d.dbid || ','
       || to_char(round(f.bytes / power(1024, 3), 2), 'FM9999999990.00') || 'GiB,'
       || case
            when e.d1 - e.d0 >= 7 and e.u0 > 0
            then to_char(round((power(e.u1 / e.u0, 365.25 / (e.d1 - e.d0)) - 1) * 100, 2),
                         'FM9999990.00')
          end
       || ','
from v$database d cross join files f cross join ends e;
exit
