//! Tests of the dungeon built-ins.
