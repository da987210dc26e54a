import { Type } from 'typebox';

/** The upload's body, as the reference describes it (the route reads the stream itself). */
export const DocumentUploadBody = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The document: PDF, TXT or MD, at most 10 MB' }) },
  { title: 'Body_upload_file_v1_policies__policy_id__upload_post' },
);
