/** Strings of src-ui/state. */
export const state = {

};
