export function start(section) { section.textContent = 'The Xiangqi explorer is coming.'; }
