"""The Dōbutsu shōgi tablebase: every position reachable from the start, solved by retrograde
analysis (build), stored memory-mapped (store, lookup) and served in lichess's tablebase shape
(routes). docs/decisions/tablebase.md says how and why."""
