import { describe, expect, it } from 'vitest';
import { generatedReason } from '@ariadne/page';

// Unit test of the generated-id detector (pure string logic) on real-world-looking values,
// both ways: what frameworks and apps generate must be flagged; hand-written ids and
// classes must stay usable as anchors.

const GENERATED_IDS = [
  ':r3:', ':R1a6:', '«r3»', '«R2fl»', 'radix-:r1:', 'radix-:R2ql6:-content-account', 'headlessui-menu-button-5', 'headlessui-listbox-option-:r7:',
  'v-1a2b3c', 'ember123', 'ember4021', 'mui-123', 'mat-input-0', 'cdk-overlay-3', 'todo-item-8f3a9c2e', 'todo-item-8f3a', 'item-5f2c1e',
  '3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'row-3f2504e04f8911d39a0c0305e82c3301', 'field-12', 'input7', 'tab-panel-3', 'react-select-2-input',
  'downshift-0-menu', 'x-4k2j9q', 'node_1678901234567', 'card-k3j4h5', 'a8Xk2Lq', '1abc', 'comment-42', 'row-3-cell',
];
const GENERATED_CLASSES = ['css-1x2y3z', 'css-1wa3eu0-placeholder', 'sc-bdVaJa', 'sc-AxjAm', 'kQzhHn', 'bGfVxP', 'ng-star-inserted', 'ng-tns-c12-3',
  'svelte-1x2y3z', 'jsx-2761283847', 'makeStyles-root-12', 'Button_primary__3xYzA', 'styles_card__a1B2c', 'jss123'];
const STABLE_IDS = ['login-form', 'main-nav', 'search', 'todo-list', 'new-todo', 'sidebar', 'user_profile', 'searchInput', 'app', 'footer', 'cart-summary',
  'checkout-button', 'product-grid', 'nav-home', 'h1', 'e2e-login', 'toggle-all', 'settings-panel', 'email'];
const STABLE_CLASSES = ['btn', 'btn-primary', 'card-body', 'col-md-6', 'mt-3', 'p-4', 'navbar-expand-lg', 'list-group-item', 'h1', 'w-100', 'todo-count', 'MuiButton-root', 'is-active', 'display-4', 'fa-2x'];

describe('generated id detector', () => {
  it.each(GENERATED_IDS)('id %s is generated', (v) => expect(generatedReason(v, 'id')).not.toBeNull());
  it.each(GENERATED_CLASSES)('class %s is generated', (v) => expect(generatedReason(v, 'class')).not.toBeNull());
  it.each(STABLE_IDS)('id %s is stable', (v) => expect(generatedReason(v, 'id')).toBeNull());
  it.each(STABLE_CLASSES)('class %s is stable', (v) => expect(generatedReason(v, 'class')).toBeNull());
  it('names the reason', () => {
    expect(generatedReason(':r3:')).toMatch(/React/);
    expect(generatedReason('ember123')).toMatch(/Ember/);
    expect(generatedReason('3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toMatch(/UUID/);
  });
});
