import { targets, Variant, type Expanded } from '../../../web/storefront/context.js';
import { TextSection } from '../../../web/storefront/blocks.js';

/** the file-storage widget's 'default': its text, then its files (widgets-to-files, in order) as a gallery */
export function FileGalleryWidget({ row }: { row: Expanded }) {
  const files = targets(row, 'widgetsToFiles', 'file');
  return (
    <TextSection row={row}>
      {files.length > 0 && (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {files.map((file) => (
            <li key={file.id}>
              <Variant module="file-storage" entity="file" variant="default" row={file} />
            </li>
          ))}
        </ul>
      )}
    </TextSection>
  );
}
