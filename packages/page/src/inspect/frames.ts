import { Bridge, type World } from '../bridge/bridge.js';

// The frame selector chain of a frame: for each frame up to the main one, a selector
// of its <iframe> unique in the parent document (found from the owner node CDP gives,
// DOM.getFrameOwner → DOM.resolveNode into the parent's world). Outermost first;
// page.frameLocator(chain[0]).frameLocator(chain[1])... reaches the frame.

export async function frameChain(bridge: Bridge, world: World): Promise<string[]> {
  const chain: string[] = [];
  const worlds = new Map((await bridge.allWorlds()).map((w) => [w.frameId, w]));
  let w: World | undefined = world;
  for (let i = 0; w && w.parentId && i < 20; i++) {
    const parent = worlds.get(w.parentId);
    if (!parent) break;
    const owner = await bridge.frameOwner(w, parent);
    try {
      chain.unshift((await bridge.call<string>(parent, 'selectorFor', {}, [owner])) as string);
    } finally {
      await bridge.release(parent, [owner]);
    }
    w = parent;
  }
  return chain;
}
