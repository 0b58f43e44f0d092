/**
 * Keeps a popup menu (absolutely positioned under its button) on the page: one that would stick out past the
 * right edge, and so widen the page, opens leftwards from its button's end instead. Call it once the menu is shown.
 */
export function keepOnPage(menu: HTMLElement | null) {
  if (!menu) return;
  menu.style.left = '';
  menu.style.right = '';
  if (menu.getBoundingClientRect().right <= document.documentElement.clientWidth) return;
  menu.style.left = 'auto';
  menu.style.right = '0';
}
