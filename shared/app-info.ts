/** Version reported to the user and to analytics (spec §9: reported app version). */
export const APP_VERSION = '5.33.0';
