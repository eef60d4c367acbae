#!/usr/bin/env node
/**
 * One peer run in a process of its own, so that strace can count its syncs:
 *   node bench/lib/peer-child.mjs STEPS DB_FILE MODE   (MODE: a PEER_MODES key)
 * Prints the runPeer result as JSON.
 */
import { loadPeer, runPeer } from "./runtime-peer.mjs";

const [n, dbFile, mode] = process.argv.slice(2);
const peer = loadPeer();
if (!peer || peer.error) throw new Error(`peer not installed: ${peer?.error ?? "see bench/README.md"}`);
console.log(JSON.stringify(await runPeer(peer, Number(n), dbFile, mode)));
