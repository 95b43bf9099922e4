// The boot benchmark's peer, worker side: comlink exposing one function, nothing else.
import * as Comlink from 'comlink';

Comlink.expose({ ping: () => 'pong' });
