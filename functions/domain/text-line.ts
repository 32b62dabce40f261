/** A line for the parser: one printed row (or one column's label with its value), and how sure its reading is. */
export interface TextLine {
  text: string;
  /** 0–1: the least sure of the runs it is made of. */
  confidence: number;
}
