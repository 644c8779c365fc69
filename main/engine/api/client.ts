// The API client: one object with a typed function per endpoint, bound to one base URL and
// one credential (held in the transport's closure, never exposed).
import * as account from './account.ts';
import * as brandSkills from './brand-skills.ts';
import * as brands from './brands.ts';
import { downloadToFile, type DownloadOptions } from './download.ts';
import * as edits from './edits.ts';
import * as exportsApi from './exports.ts';
import { createHttp, type HttpOptions } from './http.ts';
import * as images from './images.ts';
import * as library from './library.ts';
import { iterateItems, iteratePages } from './paging.ts';
import * as uploads from './uploads.ts';
import * as wait from './wait.ts';
import type { CallOptions } from './brands.ts';
import type { Brand, BrandEdit, BrandExport, BrandSkill, Image } from './schemas.ts';

export type ApiClientOptions = HttpOptions;
export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(options: ApiClientOptions) {
  const http = createHttp(options);
  return {
    baseUrl: http.baseUrl,
    /** The per-key gate: `pausedUntil`, `onChange` ("paused by the service until …"). */
    rateGate: http.gate,

    // Account
    getCredits: (query?: { workspaceId?: string | null }, o?: CallOptions) =>
      account.getCredits(http, query, o),
    listWorkspaces: (o?: CallOptions) => account.listWorkspaces(http, o),
    getAccount: (o?: CallOptions) => account.getAccount(http, o),

    // Brands
    listBrandsPage: (query?: brands.ListBrandsQuery, o?: CallOptions) =>
      brands.listBrandsPage(http, query, o),
    /** Every brand, page after page. */
    brands: (query: Omit<brands.ListBrandsQuery, 'cursor'> = {}, o: CallOptions = {}) =>
      iterateItems(
        'GET /brands',
        (cursor, signal) => brands.listBrandsPage(http, { ...query, cursor }, { signal }),
        o,
      ),
    getBrand: (id: string, o?: brands.GetBrandOptions) => brands.getBrand(http, id, o),
    waitForBrand: (id: string, o?: wait.WaitOptions<Brand>) => wait.waitForBrand(http, id, o),
    prepareBrandCreation: brands.prepareBrandCreation,
    sendBrandCreation: (prepared: brands.PreparedBrandCreation, o?: CallOptions) =>
      brands.sendBrandCreation(http, prepared, o),
    createBrand: (input: brands.CreateBrandInput, o?: brands.CreateBrandOptions) =>
      brands.createBrand(http, input, o),
    deleteBrand: (id: string, o?: CallOptions) => brands.deleteBrand(http, id, o),

    // Beta Brand Skills
    prepareBrandSkillCreation: brandSkills.prepareBrandSkillCreation,
    sendBrandSkillCreation: (prepared: brandSkills.PreparedBrandSkillCreation, o?: CallOptions) =>
      brandSkills.sendBrandSkillCreation(http, prepared, o),
    createBrandSkill: (
      input: brandSkills.CreateBrandSkillInput,
      o?: brandSkills.CreateBrandSkillOptions,
    ) => brandSkills.createBrandSkill(http, input, o),
    getBrandSkill: (id: string, o?: CallOptions) => brandSkills.getBrandSkill(http, id, o),
    waitForBrandSkill: (id: string, o?: wait.WaitOptions<BrandSkill>) =>
      wait.waitForBrandSkill(http, id, o),
    deleteBrandSkill: (id: string, o?: CallOptions) => brandSkills.deleteBrandSkill(http, id, o),

    // Uploads
    uploadLogo: (brandId: string, file: uploads.LocalFile, o?: uploads.UploadOptions) =>
      uploads.uploadLogo(http, brandId, file, o),
    uploadLogoSigned: (
      brandId: string,
      token: string,
      file: uploads.LocalFile,
      o?: uploads.UploadOptions,
    ) => uploads.uploadLogoSigned(http, brandId, token, file, o),
    uploadImage: (brandId: string, file: uploads.LocalFile, o?: uploads.UploadOptions) =>
      uploads.uploadImage(http, brandId, file, o),
    uploadImageSigned: (token: string, file: uploads.LocalFile, o?: uploads.UploadOptions) =>
      uploads.uploadImageSigned(http, token, file, o),
    uploadRemoteImage: (input: { imageUrl: string; brandId: string }, o?: CallOptions) =>
      uploads.uploadRemoteImage(http, input, o),
    stageFile: (file: uploads.LocalFile, o?: uploads.UploadOptions & { workspaceId?: string }) =>
      uploads.stageFile(http, file, o),

    // Images and videos
    getImage: (id: string, o?: images.GetImageOptions) => images.getImage(http, id, o),
    waitForImage: (id: string, o?: wait.WaitOptions<Image>) => wait.waitForImage(http, id, o),
    editImage: (id: string, input: images.EditImageInput, o?: CallOptions) =>
      images.editImage(http, id, input, o),
    getVideo: (id: string, o?: CallOptions) => library.getVideo(http, id, o),

    // Library
    listLibraryPage: (brandId: string, query?: library.LibraryQuery, o?: CallOptions) =>
      library.listLibraryPage(http, brandId, query, o),
    /** A Library page with the items as sent, unchecked (the Library mirror checks each itself). */
    listLibraryPageRaw: (brandId: string, query?: library.LibraryQuery, o?: CallOptions) =>
      library.listLibraryPageRaw(http, brandId, query, o),
    /** Every Library item of a brand, page after page. */
    library: (
      brandId: string,
      query: Omit<library.LibraryQuery, 'cursor'> = {},
      o: CallOptions = {},
    ) =>
      iterateItems(
        'GET /brands/{id}/library',
        (cursor, signal) =>
          library.listLibraryPage(http, brandId, { ...query, cursor }, { signal }),
        o,
      ),
    libraryPages: (brandId: string, query: library.LibraryQuery = {}, o: CallOptions = {}) =>
      iteratePages(
        'GET /brands/{id}/library',
        (cursor, signal) =>
          library.listLibraryPage(http, brandId, { ...query, cursor }, { signal }),
        { ...o, ...(query.cursor ? { cursor: query.cursor } : {}) },
      ),

    // Exports
    requestExport: (brandId: string, o?: CallOptions) => exportsApi.requestExport(http, brandId, o),
    getExport: (brandId: string, skillId: string, o?: CallOptions) =>
      exportsApi.getExport(http, brandId, skillId, o),
    waitForExport: (brandId: string, skillId: string, o?: wait.WaitOptions<BrandExport>) =>
      wait.waitForExport(http, brandId, skillId, o),
    /** Request, wait, and request again while failures are `retryable`. */
    exportAndWait: (brandId: string, o?: wait.ExportOptions) =>
      wait.exportAndWait(http, brandId, o),
    downloadToFile: (url: string, dest: string, o?: DownloadOptions) =>
      downloadToFile(http, url, dest, o),

    // Brand Edits
    listEditsPage: (
      brandId: string,
      query?: { cursor?: string; limit?: number },
      o?: CallOptions,
    ) => edits.listEditsPage(http, brandId, query, o),
    edits: (brandId: string, query: { limit?: number } = {}, o: CallOptions = {}) =>
      iterateItems(
        'GET /brands/{id}/edits',
        (cursor, signal) => edits.listEditsPage(http, brandId, { ...query, cursor }, { signal }),
        o,
      ),
    getEdit: (brandId: string, editId: string, o?: edits.GetEditOptions) =>
      edits.getEdit(http, brandId, editId, o),
    waitForEdit: (brandId: string, editId: string, o?: wait.WaitOptions<BrandEdit>) =>
      wait.waitForEdit(http, brandId, editId, o),
    applyEdit: (brandId: string, editId: string, o?: CallOptions) =>
      edits.applyEdit(http, brandId, editId, o),
    discardEdit: (brandId: string, editId: string, o?: CallOptions) =>
      edits.discardEdit(http, brandId, editId, o),
    answerEdit: (brandId: string, editId: string, answer: edits.EditAnswer, o?: CallOptions) =>
      edits.answerEdit(http, brandId, editId, answer, o),
  };
}
