export async function show(section) { section.textContent = 'todo'; }
