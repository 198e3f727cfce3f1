export const AR = {};
