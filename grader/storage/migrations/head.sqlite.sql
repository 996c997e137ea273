-- revision: 0012
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);

CREATE TABLE prompts (
	sha256 VARCHAR(64) NOT NULL, 
	system TEXT NOT NULL, 
	user TEXT NOT NULL, 
	token_estimate INTEGER NOT NULL, shared_chars INTEGER, 
	PRIMARY KEY (sha256)
);

CREATE TABLE seasons (
	id INTEGER NOT NULL, 
	season_key VARCHAR(200) NOT NULL, 
	content_hash VARCHAR(64) NOT NULL, 
	name VARCHAR(300) NOT NULL, 
	start DATE NOT NULL, 
	"end" DATE NOT NULL, 
	benchmark VARCHAR(50) NOT NULL, 
	source_path TEXT NOT NULL, 
	info JSON NOT NULL, 
	file_hashes JSON NOT NULL, 
	imported_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (content_hash)
);

CREATE TABLE contestants (
	id INTEGER NOT NULL, 
	season_id INTEGER NOT NULL, 
	contestant_key VARCHAR(200) NOT NULL, 
	display_name VARCHAR(300) NOT NULL, 
	provider_family VARCHAR(100) NOT NULL, 
	model VARCHAR(200) NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(season_id) REFERENCES seasons (id), 
	UNIQUE (season_id, contestant_key)
);

CREATE TABLE runs (
	id VARCHAR(200) NOT NULL, 
	season_id INTEGER NOT NULL, 
	run_type VARCHAR(20) NOT NULL, 
	rubric_id VARCHAR(200) NOT NULL, 
	rubric_hash VARCHAR(64) NOT NULL, 
	judge_facing_hash VARCHAR(64) NOT NULL, 
	panel_name VARCHAR(200) NOT NULL, 
	panel_hash VARCHAR(64) NOT NULL, 
	repeats INTEGER NOT NULL, 
	status VARCHAR(20) NOT NULL, 
	official_eligible BOOLEAN NOT NULL, 
	created_at DATETIME NOT NULL, 
	completed_at DATETIME, 
	manifest JSON, 
	manifest_hash VARCHAR(64), panel_doc JSON, notes JSON, 
	PRIMARY KEY (id), 
	FOREIGN KEY(season_id) REFERENCES seasons (id)
);

CREATE TABLE decisions (
	id INTEGER NOT NULL, 
	season_id INTEGER NOT NULL, 
	contestant_id INTEGER NOT NULL, 
	decided_at DATETIME NOT NULL, 
	line INTEGER NOT NULL, 
	trades JSON NOT NULL, 
	allocation JSON, 
	rationale TEXT NOT NULL, 
	decision_seconds FLOAT, 
	confidence FLOAT, 
	context TEXT, 
	round_id VARCHAR(100), 
	PRIMARY KEY (id), 
	FOREIGN KEY(contestant_id) REFERENCES contestants (id), 
	FOREIGN KEY(season_id) REFERENCES seasons (id), 
	UNIQUE (contestant_id, decided_at)
);

CREATE TABLE human_grades (
	id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	contestant_id INTEGER NOT NULL, 
	annotator VARCHAR(100) NOT NULL, 
	rubric_id VARCHAR(200) NOT NULL, 
	created_at DATETIME NOT NULL, 
	reasoning FLOAT NOT NULL, 
	evidence FLOAT NOT NULL, 
	outcome FLOAT, 
	data_reliability FLOAT, 
	composite FLOAT, 
	sub_scores JSON NOT NULL, 
	comment TEXT NOT NULL, rubric_hash VARCHAR(64), 
	PRIMARY KEY (id), 
	FOREIGN KEY(contestant_id) REFERENCES contestants (id), 
	FOREIGN KEY(run_id) REFERENCES runs (id)
);

CREATE TABLE judge_calls (
	id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	judge_id VARCHAR(100) NOT NULL, 
	provider VARCHAR(50) NOT NULL, 
	model VARCHAR(200) NOT NULL, 
	contestant_id INTEGER NOT NULL, 
	repeat INTEGER NOT NULL, 
	attempt INTEGER NOT NULL, 
	replaces_call_id INTEGER, 
	reused_from_call_id INTEGER, 
	cache_key VARCHAR(64) NOT NULL, 
	prompt_sha256 VARCHAR(64) NOT NULL, 
	status VARCHAR(20) NOT NULL, 
	error_kind VARCHAR(30), 
	error_message TEXT, 
	http_status INTEGER, 
	raw_reply TEXT, 
	raw_reply_sha256 VARCHAR(64), 
	parsed JSON, 
	input_tokens INTEGER, 
	output_tokens INTEGER, 
	cost_usd FLOAT, 
	latency_s FLOAT, 
	created_at DATETIME NOT NULL, cached_input_tokens INTEGER, cache_write_tokens INTEGER, batch_id INTEGER, custom_id VARCHAR(64), 
	PRIMARY KEY (id), 
	FOREIGN KEY(contestant_id) REFERENCES contestants (id), 
	FOREIGN KEY(prompt_sha256) REFERENCES prompts (sha256), 
	FOREIGN KEY(replaces_call_id) REFERENCES judge_calls (id), 
	FOREIGN KEY(reused_from_call_id) REFERENCES judge_calls (id), 
	FOREIGN KEY(run_id) REFERENCES runs (id)
);

CREATE TABLE score_versions (
	id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	rubric_id VARCHAR(200) NOT NULL, 
	rubric_hash VARCHAR(64) NOT NULL, 
	judge_calls INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	note TEXT NOT NULL, number INTEGER, rubric_doc JSON, 
	PRIMARY KEY (id), 
	FOREIGN KEY(run_id) REFERENCES runs (id)
);

CREATE TABLE contestant_scores (
	id INTEGER NOT NULL, 
	version_id INTEGER NOT NULL, 
	contestant_id INTEGER NOT NULL, 
	rank INTEGER, 
	total FLOAT, 
	reasoning_median FLOAT, 
	efficiency FLOAT, 
	band VARCHAR(20), 
	judges_low FLOAT, 
	judges_high FLOAT, 
	n_judges INTEGER NOT NULL, 
	flagged BOOLEAN NOT NULL, 
	official_eligible BOOLEAN NOT NULL, 
	outcome JSON NOT NULL, 
	details JSON NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(contestant_id) REFERENCES contestants (id), 
	FOREIGN KEY(version_id) REFERENCES score_versions (id), 
	UNIQUE (version_id, contestant_id)
);

CREATE TABLE grades (
	id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	judge_id VARCHAR(100) NOT NULL, 
	judge_family VARCHAR(50) NOT NULL, 
	contestant_id INTEGER NOT NULL, 
	repeat INTEGER NOT NULL, 
	call_id INTEGER, 
	grade JSON NOT NULL, 
	reasoning FLOAT NOT NULL, 
	evidence FLOAT NOT NULL, 
	process FLOAT NOT NULL, 
	outcome FLOAT, 
	data_reliability FLOAT, 
	composite FLOAT NOT NULL, 
	lookahead_passed BOOLEAN NOT NULL, 
	verdict TEXT NOT NULL, 
	summary TEXT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(call_id) REFERENCES judge_calls (id), 
	FOREIGN KEY(contestant_id) REFERENCES contestants (id), 
	FOREIGN KEY(run_id) REFERENCES runs (id), 
	UNIQUE (run_id, judge_id, contestant_id, repeat)
);

CREATE TABLE ledger_entries (
	id INTEGER NOT NULL, 
	grade_id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	judge_id VARCHAR(100) NOT NULL, 
	contestant_id INTEGER NOT NULL, 
	position INTEGER NOT NULL, 
	claim TEXT NOT NULL, 
	decision_date DATE, 
	symbol VARCHAR(50), 
	cited_fields JSON NOT NULL, 
	judge_status VARCHAR(20) NOT NULL, 
	judge_note TEXT NOT NULL, 
	verifier_status VARCHAR(20) NOT NULL, 
	verifier_reason TEXT NOT NULL, 
	evidence JSON NOT NULL, 
	flags JSON NOT NULL, 
	disagrees BOOLEAN NOT NULL, 
	lookahead BOOLEAN NOT NULL, check_path VARCHAR(12) DEFAULT 'text' NOT NULL, flag_reasons JSON, clause TEXT, 
	PRIMARY KEY (id), 
	FOREIGN KEY(contestant_id) REFERENCES contestants (id), 
	FOREIGN KEY(grade_id) REFERENCES grades (id), 
	FOREIGN KEY(run_id) REFERENCES runs (id)
);

CREATE TABLE ledger_annotations (
	id INTEGER NOT NULL, 
	ledger_entry_id INTEGER NOT NULL, 
	annotator VARCHAR(100) NOT NULL, 
	created_at DATETIME NOT NULL, 
	status VARCHAR(20) NOT NULL, 
	note TEXT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(ledger_entry_id) REFERENCES ledger_entries (id)
);

CREATE TABLE run_leases (
	run_id VARCHAR(200) NOT NULL, 
	token VARCHAR(64) NOT NULL, 
	host VARCHAR(255) NOT NULL, 
	pid INTEGER NOT NULL, 
	acquired_at DATETIME NOT NULL, 
	heartbeat_at DATETIME NOT NULL, 
	PRIMARY KEY (run_id)
);

CREATE TABLE identity_probe_calls (
	id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	judge_id VARCHAR(200) NOT NULL, 
	item_key VARCHAR(400) NOT NULL, 
	true_family VARCHAR(100) NOT NULL, 
	candidates JSON NOT NULL, 
	prompt_sha256 VARCHAR(64) NOT NULL, 
	attempt INTEGER NOT NULL, 
	status VARCHAR(20) NOT NULL, 
	guess VARCHAR(100), 
	confidence FLOAT, 
	raw_reply TEXT, 
	error TEXT, 
	input_tokens INTEGER, 
	output_tokens INTEGER, 
	latency_s FLOAT, 
	created_at DATETIME NOT NULL, 
	completed_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(run_id) REFERENCES runs (id)
);

CREATE TABLE calibration_sets (
	id VARCHAR(200) NOT NULL, 
	source_run_id VARCHAR(200) NOT NULL, 
	rubric_id VARCHAR(200) NOT NULL, 
	rubric_hash VARCHAR(64) NOT NULL, 
	seed INTEGER NOT NULL, 
	n_items INTEGER NOT NULL, 
	window INTEGER NOT NULL, 
	bundle_path TEXT NOT NULL, 
	bundle_hash VARCHAR(64) NOT NULL, 
	method TEXT NOT NULL, 
	items JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(source_run_id) REFERENCES runs (id)
);

CREATE TABLE judge_batches (
	id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	judge_id VARCHAR(100) NOT NULL, 
	provider VARCHAR(50) NOT NULL, 
	model VARCHAR(200) NOT NULL, 
	provider_batch_id VARCHAR(200), 
	status VARCHAR(20) NOT NULL, 
	provider_status VARCHAR(50), 
	request_count INTEGER NOT NULL, 
	counts JSON, 
	raw_status TEXT, 
	error_message TEXT, 
	submitted_at DATETIME NOT NULL, 
	checked_at DATETIME, 
	collected_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(run_id) REFERENCES runs (id)
);

CREATE TABLE row_hashes (
	id INTEGER NOT NULL, 
	run_id VARCHAR(200) NOT NULL, 
	kind VARCHAR(30) NOT NULL, 
	ref VARCHAR(200) NOT NULL, 
	label TEXT NOT NULL, 
	sha256 VARCHAR(64) NOT NULL, 
	recorded_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_row_hashes_kind_ref UNIQUE (kind, ref)
);

CREATE TABLE alias_secrets (
	season_key VARCHAR(200) NOT NULL, 
	secret VARCHAR(64) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (season_key)
);

CREATE INDEX ix_seasons_season_key ON seasons (season_key);

CREATE INDEX ix_contestants_season_id ON contestants (season_id);

CREATE INDEX ix_runs_season_id ON runs (season_id);

CREATE INDEX ix_decisions_season_contestant_time ON decisions (season_id, contestant_id, decided_at);

CREATE INDEX ix_human_run_contestant ON human_grades (run_id, contestant_id);

CREATE INDEX ix_calls_cache_key ON judge_calls (cache_key, status);

CREATE INDEX ix_calls_run_judge_contestant ON judge_calls (run_id, judge_id, contestant_id, repeat);

CREATE INDEX ix_score_versions_run_id ON score_versions (run_id);

CREATE INDEX ix_contestant_scores_version_id ON contestant_scores (version_id);

CREATE INDEX ix_grades_run_id ON grades (run_id);

CREATE INDEX ix_ledger_entries_grade_id ON ledger_entries (grade_id);

CREATE INDEX ix_ledger_run_contestant ON ledger_entries (run_id, contestant_id);

CREATE INDEX ix_ledger_run_judge_status ON ledger_entries (run_id, judge_id, verifier_status);

CREATE INDEX ix_ledger_annotations_ledger_entry_id ON ledger_annotations (ledger_entry_id);

CREATE INDEX ix_probe_calls_run_judge ON identity_probe_calls (run_id, judge_id, status);

CREATE UNIQUE INDEX uq_score_versions_run_number ON score_versions (run_id, number);

CREATE INDEX ix_judge_batches_run ON judge_batches (run_id, status);

CREATE INDEX ix_calls_batch ON judge_calls (batch_id);

CREATE INDEX ix_row_hashes_run_kind ON row_hashes (run_id, kind);

