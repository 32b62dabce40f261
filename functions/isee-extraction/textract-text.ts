import { DetectDocumentTextCommand, GetDocumentTextDetectionCommand, type Block, type TextractClient } from '@aws-sdk/client-textract';
import type { DocumentText } from '../domain/isee-attestation.ts';

/** Textract's LINE blocks, page by page, as the parser's lines; quality is their mean confidence. */
export function linesFromBlocks(blocks: Block[]): DocumentText {
  const lines = blocks.filter((b) => b.BlockType === 'LINE' && b.Text);
  const mean = lines.length ? lines.reduce((sum, b) => sum + (b.Confidence ?? 0), 0) / lines.length / 100 : 0;
  return { lines: lines.map((b) => b.Text!), source: 'textract', quality: mean };
}

export interface StoredDocument {
  bucket: string;
  key: string;
}

/** An image: synchronous text detection, one page. */
export async function detectText(textract: TextractClient, document: StoredDocument): Promise<DocumentText> {
  const result = await textract.send(new DetectDocumentTextCommand({ Document: { S3Object: { Bucket: document.bucket, Name: document.key } } }));
  return linesFromBlocks(result.Blocks ?? []);
}

/** A PDF: the blocks of a finished asynchronous job, every page of results (NextToken). */
export async function textDetectionResult(textract: TextractClient, jobId: string): Promise<DocumentText> {
  const blocks: Block[] = [];
  let nextToken: string | undefined;
  do {
    const page = await textract.send(new GetDocumentTextDetectionCommand({ JobId: jobId, NextToken: nextToken }));
    if (page.JobStatus !== 'SUCCEEDED') throw new Error(`Textract job ${jobId}: ${page.JobStatus} ${page.StatusMessage ?? ''}`.trim());
    blocks.push(...(page.Blocks ?? []));
    nextToken = page.NextToken;
  } while (nextToken);
  return linesFromBlocks(blocks);
}
