/** The attachments feature's public face for the other features: the tiles of a message's attachments (the viewer opens from them). */
export { AttachmentList } from './AttachmentList';
