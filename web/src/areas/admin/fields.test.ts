import { describe, expect, it } from "vitest";
import {
  emptyRow,
  initialValues,
  problemFieldErrors,
  splitList,
  toBody,
  validate,
  visibleFields,
  type FieldDef,
} from "./fields";

const msg = { required: "required", number: "number", range: "{min}..{max}", tooLong: "max {max}", json: "json" };

const fields: FieldDef[] = [
  { name: "name", label: "Name", kind: "text", required: true, maxLength: 5 },
  { name: "description", label: "Description", kind: "textarea", nullable: true },
  { name: "code", label: "Code", kind: "text", createOnly: true },
  { name: "days", label: "Days", kind: "number", min: 1, max: 10 },
  { name: "enabled", label: "Enabled", kind: "checkbox", initial: true },
  { name: "kind", label: "Kind", kind: "select", options: [{ value: "A", label: "a" }, { value: "B", label: "b" }] },
  { name: "reviewType", label: "Review", kind: "select", nullable: true, options: [{ value: "Quick", label: "q" }] },
  { name: "events", label: "Events", kind: "multi", required: true, options: [{ value: "x", label: "x" }] },
  { name: "terms", label: "Terms", kind: "list" },
  { name: "doc", label: "Doc", kind: "json" },
  { name: "secret", label: "Secret", kind: "text", showIf: (v) => v.kind === "B" },
  {
    name: "items",
    label: "Items",
    kind: "rows",
    rows: [
      { name: "text", label: "Text", kind: "text", required: true },
      { name: "required", label: "Required", kind: "checkbox", initial: true },
    ],
  },
];

describe("initialValues", () => {
  it("gives a new item each field's default", () => {
    const v = initialValues(fields);
    expect(v).toMatchObject({ name: "", days: "", enabled: true, kind: "A", reviewType: "", events: [], terms: "", doc: "", items: [] });
  });
  it("turns an item into form values", () => {
    const v = initialValues(fields, {
      name: "n",
      description: null,
      days: 3,
      enabled: false,
      kind: "B",
      events: ["x"],
      terms: ["a", "b"],
      doc: [{ type: "paragraph" }],
      items: [{ id: "i1", text: "Check", required: false }],
    });
    expect(v.days).toBe("3");
    expect(v.description).toBe("");
    expect(v.enabled).toBe(false);
    expect(v.terms).toBe("a\nb");
    expect(JSON.parse(v.doc as string)).toEqual([{ type: "paragraph" }]);
    expect(v.items).toEqual([{ id: "i1", text: "Check", required: false }]);
  });
  it("gives a new row its sub-fields' defaults", () => {
    expect(emptyRow(fields[fields.length - 1])).toEqual({ text: "", required: true });
  });
});

describe("validate", () => {
  it("finds blank required fields, bad numbers, long text, bad JSON and blank row fields", () => {
    const v = initialValues(fields);
    v.name = "toolong";
    v.days = "11";
    v.doc = "{";
    v.items = [{ text: " ", required: true }];
    expect(validate(fields, v, msg)).toEqual({
      name: ["max 5"],
      days: ["1..10"],
      events: ["required"],
      doc: ["json"],
      "items[0].text": ["required"],
    });
  });
  it("refuses a number that is not whole", () => {
    const v = { ...initialValues(fields), name: "ok", events: ["x"], days: "2.5" };
    expect(validate(fields, v, msg)).toEqual({ days: ["number"] });
  });
  it("skips hidden fields", () => {
    const hidden: FieldDef[] = [{ name: "secret", label: "", kind: "text", required: true, showIf: (v) => v.on === true }];
    expect(validate(hidden, { on: false, secret: "" }, msg)).toEqual({});
    expect(validate(hidden, { on: true, secret: "" }, msg)).toEqual({ secret: ["required"] });
  });
});

describe("toBody", () => {
  it("converts each kind and leaves blank optional fields out", () => {
    const v = initialValues(fields);
    Object.assign(v, {
      name: "Name",
      days: " 4 ",
      events: ["x"],
      terms: "a, b\n\nc",
      doc: '[{"type":"paragraph"}]',
      items: [{ id: "i1", text: "One", required: false }, { text: "Two", required: true }],
    });
    expect(toBody(fields, v)).toEqual({
      name: "Name",
      description: null,
      days: 4,
      enabled: true,
      kind: "A",
      reviewType: null,
      events: ["x"],
      terms: ["a", "b", "c"],
      doc: [{ type: "paragraph" }],
      items: [{ id: "i1", text: "One", required: false }, { text: "Two", required: true }],
    });
  });
  it("leaves out create-only fields when editing and hidden ones always", () => {
    const v = { ...initialValues(fields), code: "en", secret: "s" };
    expect("code" in toBody(fields, v, true)).toBe(false);
    expect(toBody(fields, v, false).code).toBe("en");
    expect("secret" in toBody(fields, v)).toBe(false);
    expect(toBody(fields, { ...v, kind: "B" }).secret).toBe("s");
    expect(visibleFields(fields, v, true).some((f) => f.name === "code")).toBe(false);
  });
});

describe("problemFieldErrors", () => {
  it("puts each server error under the field that shows it", () => {
    const errors = problemFieldErrors(
      [
        { field: "name", message: "taken" },
        { field: "items[1].text", message: "too long" },
        { field: "textPattern.text", message: "blank" },
        { field: "config.url", message: "not a URL" },
        { field: "config", message: "missing" },
        { field: "terms[3]", message: "bad" },
      ],
      [...fields, { name: "patternText", label: "", kind: "text" }],
      { "textPattern.text": "patternText" },
    );
    expect(errors).toEqual({
      name: ["taken"],
      "items[1].text": ["too long"],
      patternText: ["blank"],
      terms: ["terms[3]: bad"],
      "": ["config.url: not a URL", "config: missing"],
    });
  });
  it("is empty without errors", () => {
    expect(problemFieldErrors(undefined, fields)).toEqual({});
  });
});

describe("splitList", () => {
  it("splits on lines and commas, trimming blanks away", () => {
    expect(splitList(" a ,b\n\n c ")).toEqual(["a", "b", "c"]);
  });
});

import { auditQuery } from "./auditQuery";
describe("auditQuery", () => {
  it("leaves blank filters out and adds the cursor", () => {
    expect(auditQuery({ actor: " ", action: "webhook.", from: "2030-01-01", to: "" }, "c1")).toBe(
      "action=webhook.&from=2030-01-01&limit=50&cursor=c1",
    );
  });
});
