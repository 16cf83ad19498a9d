import type { PageState } from '@ariadne/page';
import { Screencast, type ScreencastOptions, type Watcher } from './screencast.js';

/** The screencasts running on this node, one per watched tab. */
export class ScreencastRegistry {
  private readonly casts = new Map<string, Screencast>();

  get(sessionId: string, role: string, state: PageState, opts: ScreencastOptions): Screencast {
    const key = `${sessionId}/${role}/${state.id}`;
    let cast = this.casts.get(key);
    if (!cast) {
      cast = new Screencast(state, opts, () => this.casts.delete(key));
      this.casts.set(key, cast);
    }
    return cast;
  }

  release(sessionId: string, roleAndPage: string, watcher: Watcher): void {
    this.casts.get(`${sessionId}/${roleAndPage}`)?.remove(watcher);
  }

  get size(): number {
    return this.casts.size;
  }
}
