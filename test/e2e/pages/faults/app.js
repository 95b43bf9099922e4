// The library as a page of its own would load it; the tests drive it through window.lib.
import * as lib from '/vendor/lib/inpage-agent.js';

window.lib = lib;
window.ready = true;
